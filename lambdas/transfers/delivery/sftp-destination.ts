import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import ssh2, { type Client, type ConnectConfig, type SFTPWrapper, type Stats } from 'ssh2';
import { chunksOf, BodyError } from './body-chunks.ts';
import { checkDeliveryPath, PARTIAL_SUFFIX, underFolder } from './delivery-paths.ts';
import { DeliveryError, type DeliveryBody, type Destination } from './types.ts';

const { STATUS_CODE } = ssh2.utils.sftp;

/** Bytes per SFTP WRITE request: within every server's packet limit (OpenSSH and ssh2 accept 32 KiB and more). */
const WRITE_PIECE = 32 * 1024;
/** WRITE requests in flight at once: about 2 MiB, so a long delivery uses constant memory yet keeps the link busy. */
const WRITES_IN_FLIGHT = 64;

export interface SftpTarget {
  /** The address connected to: the egress-checked address of the configured server (delivery/index.ts). */
  host: string;
  /** The server as configured, named in messages instead of the address (default: `host`). */
  name?: string;
  port: number;
  username: string;
  /** Password login (what a transfer configuration holds); `privateKey` is for checking the client against OpenSSH. */
  password?: string;
  privateKey?: string;
  /** `SHA256:…` as `ssh-keygen -l` prints it; without it nothing is delivered (the key shown goes to the debug log only). */
  hostKeyFingerprint?: string;
  /** Absolute folder every path is written under; made when missing. */
  rootDirectory: string;
  /** Milliseconds to wait for the connection and login (default 20 s). */
  readyTimeoutMs?: number;
  /** Where the detail of a failed connection goes (the run's debug log); the error itself stays generic. */
  onConnectionDetail?: (detail: string) => void;
}

/**
 * The one answer to every connection that failed before login (docs/decisions.md "Egress"): a closed, filtered or
 * open non-SSH port, a dropped handshake and a host key that is not the configured one read the same, and no key a
 * server showed is repeated, so the transfer's error_message cannot serve as a port scanner of the functions' network.
 */
export const SFTP_UNREACHABLE_MESSAGE = 'Could not reach the SFTP server or it did not accept the configured host key';

/** The fingerprint OpenSSH prints for a host key: `SHA256:` and the unpadded base64 of the key blob's digest. */
export function sshFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

interface Session {
  client: Client;
  sftp: SFTPWrapper;
  closed: boolean;
  /** Folders known to exist on this connection, so a delivery of many files does not ask for each again. */
  folders: Set<string>;
}

type SftpError = Error & { code?: unknown; level?: unknown };

const call = <T>(run: (callback: (error: Error | null | undefined, value: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));
/** An SFTP call that answers only with a status. */
const done = (run: (callback: (error: Error | null | undefined) => void) => void) =>
  new Promise<void>((resolve, reject) => run((error) => (error ? reject(error) : resolve())));

const isNoSuchFile = (error: unknown) => (error as SftpError).code === STATUS_CODE.NO_SUCH_FILE;

/**
 * Delivers to a customer's SFTP server with `ssh2`'s client: password login, the host key checked against the
 * configured fingerprint, files written as `<name>.partial` then renamed (SFTP v3 RENAME never replaces a file), and
 * WRITE requests pipelined a bounded number at a time as the body is read. A dropped connection is re-opened by
 * the next call.
 */
export async function openSftpDestination(target: SftpTarget): Promise<Destination> {
  let current: Session | undefined;
  let opening: Promise<Session> | undefined;
  const where = `${target.name ?? target.host}:${target.port}`;

  const connect = () =>
    new Promise<Session>((resolve, reject) => {
      const client = new ssh2.Client();
      let hostKeyProblem: string | undefined;
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        // Destroyed, not ended: before the handshake end() may leave a half-closed socket to a server that spoke no SSH.
        client.destroy();
        reject(connectionError(error, where, hostKeyProblem, target.onConnectionDetail));
      };
      client.on('error', fail);
      client.on('close', () => {
        if (session) session.closed = true;
        fail(new Error('connection closed before login'));
      });
      let session: Session | undefined;
      client.on('ready', () => {
        // Every SFTP call waits for its answer, and a small request held back by Nagle's algorithm waits for the
        // server's delayed acknowledgement too: with it on, a 32 KiB file took 640 ms to the stand-in, 320 ms off.
        client.setNoDelay(true);
        client.sftp((error, sftp) => {
          if (error) return fail(error);
          session = { client, sftp, closed: false, folders: new Set() };
          sftp.on('close', () => {
            if (session) session.closed = true;
          });
          settled = true;
          resolve(session);
        });
      });
      const config: ConnectConfig = {
        host: target.host,
        port: target.port,
        username: target.username,
        readyTimeout: target.readyTimeoutMs ?? 20_000,
        // A silent network drop is noticed within about 30 s instead of hanging the run until the function's time limit.
        keepaliveInterval: 10_000,
        keepaliveCountMax: 3,
        hostVerifier: (key: Buffer) => {
          const shown = sshFingerprint(key);
          if (target.hostKeyFingerprint === undefined) {
            hostKeyProblem = `params.host_key_fingerprint: not set, so nothing is delivered to ${where}; it showed host key ${shown}: check that with the server's administrator, then set it`;
          } else if (shown !== target.hostKeyFingerprint) {
            hostKeyProblem = `params.host_key_fingerprint: ${where} showed host key ${shown}, not the configured ${target.hostKeyFingerprint}; nothing was delivered`;
          }
          return hostKeyProblem === undefined;
        },
        ...(target.privateKey === undefined ? { password: target.password } : { privateKey: target.privateKey }),
      };
      client.connect(config);
    });

  const session = async (): Promise<Session> => {
    if (current && !current.closed) return current;
    opening ??= connect().finally(() => (opening = undefined));
    current = await opening;
    return current;
  };

  await session();

  const statOf = async (sftp: SFTPWrapper, path: string): Promise<Stats | undefined> => {
    try {
      return await call<Stats>((callback) => sftp.stat(path, callback));
    } catch (error) {
      if (isNoSuchFile(error)) return undefined;
      throw error;
    }
  };

  const makeFolders = async (open: Session, folder: string) => {
    let made = '';
    for (const segment of folder.split('/').filter((part) => part !== '')) {
      made = `${made}/${segment}`;
      if (open.folders.has(made)) continue;
      const existing = await statOf(open.sftp, made);
      if (existing === undefined) {
        // Another writer may make it at the same moment: what counts is that it is a folder afterwards.
        await done((callback) => open.sftp.mkdir(made, callback)).catch(async (error: unknown) => {
          if (!(await statOf(open.sftp, made))?.isDirectory()) throw error;
        });
      } else if (!existing.isDirectory()) {
        throw new DeliveryError(`${made} on ${where} is a file, not a folder`, { retryable: false });
      }
      open.folders.add(made);
    }
  };

  return {
    async put(path, body, options = {}) {
      checkDeliveryPath(path);
      const final = underFolder(target.rootDirectory, path);
      const partial = `${final}${PARTIAL_SUFFIX}`;
      let open: Session;
      try {
        open = await session();
        if ((await statOf(open.sftp, final)) !== undefined) throw alreadyThere(final, where);
        await makeFolders(open, posix.dirname(final));
      } catch (error) {
        await chunksOf(body).cancel(error);
        throw asDeliveryError(error, where);
      }
      const { sftp } = open;
      let handle: Buffer | undefined;
      try {
        handle = await call<Buffer>((callback) => sftp.open(partial, 'w', callback));
        const written = await writeBody(sftp, handle, body);
        const opened = handle;
        handle = undefined;
        await done((callback) => sftp.close(opened, callback));
        const arrived = (await statOf(sftp, partial))?.size;
        if (arrived !== written.bytes) {
          throw new DeliveryError(`${final} on ${where}: ${String(arrived)} bytes arrived of ${written.bytes} sent`, { retryable: true });
        }
        // The caller's refusal is its own error, passed through as the body's is.
        await options.beforeCommit?.(written).catch((error: unknown) => Promise.reject(new BodyError(error)));
        try {
          await done((callback) => sftp.rename(partial, final, callback));
        } catch (error) {
          if ((await statOf(sftp, final)) !== undefined) throw alreadyThere(final, where);
          throw error;
        }
        return { path, ...written };
      } catch (error) {
        // Leave no temporary name behind where the connection still allows it; a dropped one is retried over it ('w').
        if (!open.closed) {
          if (handle) await done((callback) => sftp.close(handle as Buffer, callback)).catch(() => undefined);
          await done((callback) => sftp.unlink(partial, callback)).catch(() => undefined);
        }
        if (error instanceof BodyError) throw error.original;
        throw asDeliveryError(error, where);
      }
    },

    async exists(path) {
      checkDeliveryPath(path);
      try {
        const stats = await statOf((await session()).sftp, underFolder(target.rootDirectory, path));
        if (stats === undefined) return undefined;
        if (!stats.isFile()) throw new DeliveryError(`${underFolder(target.rootDirectory, path)} on ${where} is not a file`, { retryable: false });
        return { bytes: stats.size };
      } catch (error) {
        throw asDeliveryError(error, where);
      }
    },

    async close() {
      const open = current;
      current = undefined;
      if (open && !open.closed) {
        await new Promise<void>((resolve) => {
          open.client.once('close', () => resolve());
          open.client.end();
        });
      }
    },
  };
}

/**
 * Streams the body into the open file: each chunk is hashed, cut into WRITE requests at increasing offsets and sent
 * while at most WRITES_IN_FLIGHT wait for their answer; the next chunk is read only when there is room.
 */
async function writeBody(sftp: SFTPWrapper, handle: Buffer, body: DeliveryBody): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  const source = chunksOf(body);
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let position = 0;
  const send = async (piece: Buffer) => {
    const request: Promise<void> = done((callback) => sftp.write(handle, piece, 0, piece.length, position, callback))
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
    position += piece.length;
    while (inFlight.size >= WRITES_IN_FLIGHT && failure === undefined) await Promise.race(inFlight);
    if (failure !== undefined) throw failure;
  };
  // A chunk's tail shorter than a piece waits for the next chunk, so no WRITE is sent for a few bytes.
  let carry: Buffer | undefined;
  try {
    for (let chunk = await source.next(); chunk !== undefined; chunk = await source.next()) {
      hash.update(chunk);
      const arrived = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const bytes = carry === undefined ? arrived : Buffer.concat([carry, arrived]);
      carry = undefined;
      let offset = 0;
      for (; bytes.length - offset >= WRITE_PIECE; offset += WRITE_PIECE) await send(bytes.subarray(offset, offset + WRITE_PIECE));
      // Copied: the producer may reuse its chunk's memory once it is handed back.
      if (offset < bytes.length) carry = Buffer.from(bytes.subarray(offset));
    }
    if (carry !== undefined) await send(carry);
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    return { bytes: position, sha256: hash.digest('hex') };
  } catch (error) {
    if (!(error instanceof BodyError)) await source.cancel(error);
    await Promise.all(inFlight);
    throw error;
  }
}

function alreadyThere(path: string, where: string): DeliveryError {
  return new DeliveryError(`${path} already exists on ${where}; a delivered file is never replaced`, { retryable: false });
}

/**
 * A refused login will not mend by itself, and is only reached after the server proved the configured host key, so
 * it may say so. Anything before that (refused, dropped, timed out, a host key not the configured one) is the one
 * generic answer, retryable alike so not even the number of attempts tells them apart; the detail goes to the log.
 */
function connectionError(error: unknown, where: string, hostKeyProblem: string | undefined, onDetail?: (detail: string) => void): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const { level, message } = error as SftpError;
  if (level === 'client-authentication' && hostKeyProblem === undefined) {
    return new DeliveryError(`${where} refused the login of the configured username and password`, { retryable: false, cause: error });
  }
  onDetail?.(hostKeyProblem ?? `${where}: ${message}`);
  return new DeliveryError(SFTP_UNREACHABLE_MESSAGE, { retryable: true, cause: error });
}

/** An SFTP status names a refusal that persists (no permission, unsupported); anything else may be transient. */
function asDeliveryError(error: unknown, where: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const { code, message } = error as SftpError;
  const lasting = code === STATUS_CODE.PERMISSION_DENIED || code === STATUS_CODE.OP_UNSUPPORTED || code === STATUS_CODE.NO_SUCH_FILE;
  return new DeliveryError(`SFTP ${where}: ${message}`, { retryable: !lasting, cause: error });
}
