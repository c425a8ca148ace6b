import { createHash, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ssh2, { type Connection } from 'ssh2';
import { serveSftpSession } from './sftp-files.ts';

const { Server, utils } = ssh2;

/** The fixed account `npm start` serves, so a demo transfer target can be configured once and keep working. */
export const DEMO_SFTP = { port: 2222, username: 'demo-sftp', password: 'Verity-sftp-1' } as const;

export interface LocalSftpOptions {
  /** Keeps `host_ed25519` (the host key, made once) and `root/` (the folder clients see as `/`). */
  directory: string;
  /** Loopback port; 0 picks a free one. */
  port: number;
  /** Loopback address to listen on (default 127.0.0.1; the integration tests' own receivers use their stand-in address). */
  host?: string;
  username: string;
  password: string;
}

export interface LocalSftp {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The folder on disk that clients see as `/`. */
  root: string;
  /** The host's public key as an OpenSSH `known_hosts` key (`ssh-ed25519 AAAA…`). */
  hostPublicKey: string;
  /** `SHA256:…`, as `ssh` prints it when it first meets the host. */
  hostKeyFingerprint: string;
  stop(): Promise<void>;
}

/** The host key is made once per data folder, so clients that trusted it keep trusting it across restarts. */
function loadOrCreateHostKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const key = parsableHostKey();
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/**
 * A new ed25519 host key that ssh2 can read back: about one key in 250 that ssh2's generator writes, its own parser
 * calls a malformed OpenSSH private key (measured: 12 of 3,000), so a key is made again until it reads.
 */
function parsableHostKey(): string {
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    const { private: key } = utils.generateKeyPairSync('ed25519', { comment: 'verity-local-sftp' });
    if (!(utils.parseKey(key) instanceof Error)) return key;
  }
  throw new Error('Could not make an SFTP host key that ssh2 reads back');
}

/** Compares two secrets in constant time (digests first: equal lengths whatever was typed). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The local stand-in for a customer's SFTP server (transfers deliver there): `ssh2` in server mode on 127.0.0.1,
 * password login for one account, the SFTP subsystem only (no shell, exec or forwarding), confined to `root/`.
 */
export async function startSftp(options: LocalSftpOptions): Promise<LocalSftp> {
  const root = join(options.directory, 'root');
  mkdirSync(root, { recursive: true });
  const privateKey = loadOrCreateHostKey(join(options.directory, 'host_ed25519'));
  const parsed = utils.parseKey(privateKey);
  if (parsed instanceof Error) throw new Error(`The SFTP host key ${join(options.directory, 'host_ed25519')} is unreadable: ${parsed.message}`);
  const publicBlob = parsed.getPublicSSH();
  const connections = new Set<Connection>();

  const server = new Server({ hostKeys: [privateKey] }, (client) => {
    connections.add(client);
    // Each answer goes out at once, as OpenSSH's server answers in one segment: held back by Nagle's algorithm until
    // the client's delayed acknowledgement, every SFTP call took tens of milliseconds (a 32 KiB put 320 ms, 40 without).
    // (ssh2's server connection has setNoDelay, as its client has; its typings leave it out.)
    (client as Connection & { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    client.on('close', () => connections.delete(client));
    // A client that drops mid-handshake is not the stand-in's failure.
    client.on('error', () => undefined);
    client.on('authentication', (context) => {
      if (context.method === 'password' && context.username === options.username && sameSecret(context.password, options.password)) {
        context.accept();
      } else {
        context.reject(['password']);
      }
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => serveSftpSession(acceptSftp(), root, options.username));
      });
    });
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`The SFTP stand-in cannot listen on ${options.host ?? '127.0.0.1'}:${options.port}: the port is in use`) : error),
    );
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : options.port);
    });
  });

  return {
    host: options.host ?? '127.0.0.1',
    port,
    username: options.username,
    password: options.password,
    root,
    hostPublicKey: `${parsed.type} ${publicBlob.toString('base64')}`,
    hostKeyFingerprint: `SHA256:${createHash('sha256').update(publicBlob).digest('base64').replace(/=+$/, '')}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const client of connections) client.end();
        server.close(() => resolve());
      }),
  };
}
