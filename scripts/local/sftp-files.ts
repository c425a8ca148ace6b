import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import ssh2, { type Attributes, type FileEntry, type SFTPWrapper } from 'ssh2';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

/** A request the session refuses, with the SFTP status it answers. */
class SftpRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A client path resolved inside the served folder: its name as the client sees it, and the file on disk. */
interface ResolvedPath {
  virtual: string;
  host: string;
}

/**
 * Resolves a client path inside `root`, chroot-like: `/` is the served folder, relative paths start there. A `..`
 * segment or a symbolic link anywhere on the way is refused, so no request reaches a file outside the folder
 * (the session offers no SYMLINK, but a link could still be planted on disk by someone else).
 */
export async function resolveInside(root: string, clientPath: string): Promise<ResolvedPath> {
  if (clientPath.includes('\0')) throw new SftpRefusal(STATUS_CODE.BAD_MESSAGE, 'Path contains a NUL byte');
  const segments = clientPath.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, 'Paths may not contain ..');
  let host = root;
  for (const segment of segments) {
    host = join(host, segment);
    const stats = await lstat(host).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    if (stats === undefined) break;
    if (stats.isSymbolicLink()) throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, 'Symbolic links are not followed');
  }
  return { virtual: `/${segments.join('/')}`, host: join(root, ...segments) };
}

function attributesOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

/** The `ls -l` style line OpenSSH's `sftp` prints for `ls -l`. */
function longnameOf(name: string, stats: Stats, owner: string): string {
  const kind = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'l' : '-';
  const bits = 'rwxrwxrwx'
    .split('')
    .map((letter, index) => (stats.mode & (0o400 >> index) ? letter : '-'))
    .join('');
  const date = stats.mtime.toISOString().slice(0, 16).replace('T', ' ');
  return `${kind}${bits}    1 ${owner.padEnd(8)} ${owner.padEnd(8)} ${String(stats.size).padStart(10)} ${date} ${name}`;
}

/** SFTP open flags (SSH_FXF_*) as `open(2)` flags; never following a symbolic link at the last step. */
function openFlagsOf(flags: number): number {
  const read = (flags & OPEN_MODE.READ) !== 0;
  const write = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND)) !== 0;
  let result = read && write ? constants.O_RDWR : write ? constants.O_WRONLY : constants.O_RDONLY;
  if (flags & OPEN_MODE.APPEND) result |= constants.O_APPEND;
  if (flags & OPEN_MODE.CREAT) result |= constants.O_CREAT;
  if (flags & OPEN_MODE.TRUNC) result |= constants.O_TRUNC;
  if (flags & OPEN_MODE.EXCL) result |= constants.O_EXCL;
  return result | constants.O_NOFOLLOW;
}

function statusOf(error: unknown): { code: number; message: string } {
  if (error instanceof SftpRefusal) return { code: error.code, message: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' };
  // ELOOP: O_NOFOLLOW met a symbolic link planted after the path was checked.
  if (code === 'EACCES' || code === 'EPERM' || code === 'ELOOP') return { code: STATUS_CODE.PERMISSION_DENIED, message: 'Permission denied' };
  return { code: STATUS_CODE.FAILURE, message: 'Failure' };
}

type OpenHandle = { kind: 'file'; file: FileHandle } | { kind: 'dir'; host: string; listed: boolean };

/** At most this many files and folders open at once per session: a client cannot exhaust descriptors. */
const MAX_HANDLES = 64;
/** Largest READ answer; clients ask again for the rest, as they do with any server. */
const MAX_READ = 64 * 1024;

/**
 * Serves one SFTP session over the folder `root`: the operations an uploading client uses (open, read, write,
 * close, stat, lstat, fstat, setstat and fsetstat as no-ops, mkdir, rmdir, opendir, readdir, realpath, rename,
 * remove). Anything else (symlink, readlink, extensions) is answered OP_UNSUPPORTED by ssh2 itself.
 */
export function serveSftpSession(sftp: SFTPWrapper, root: string, owner: string): void {
  const handles = new Map<number, OpenHandle>();
  let nextHandle = 1;

  const handleBuffer = (id: number) => {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  };
  const lookup = (buffer: Buffer): [number, OpenHandle] => {
    const id = buffer.length === 4 ? buffer.readUInt32BE(0) : -1;
    const handle = handles.get(id);
    if (handle === undefined) throw new SftpRefusal(STATUS_CODE.FAILURE, 'Invalid handle');
    return [id, handle];
  };
  const addHandle = (reqId: number, handle: OpenHandle) => {
    const id = nextHandle++;
    handles.set(id, handle);
    sftp.handle(reqId, handleBuffer(id));
  };
  const guard = (reqId: number, work: () => Promise<void>) => {
    work().catch((error: unknown) => {
      const { code, message } = statusOf(error);
      sftp.status(reqId, code, message);
    });
  };
  const ok = (reqId: number) => sftp.status(reqId, STATUS_CODE.OK);
  const resolve = (path: string) => resolveInside(root, path);
  const refuseRoot = (path: ResolvedPath) => {
    if (path.virtual === '/') throw new SftpRefusal(STATUS_CODE.PERMISSION_DENIED, 'The root folder cannot be changed');
  };
  const needsRoom = () => {
    if (handles.size >= MAX_HANDLES) throw new SftpRefusal(STATUS_CODE.FAILURE, 'Too many open handles');
  };

  sftp.on('REALPATH', (reqId, path) =>
    guard(reqId, async () => {
      const { virtual } = await resolve(path);
      sftp.name(reqId, [{ filename: virtual, longname: virtual, attrs: {} as Attributes }]);
    }),
  );
  const statPath = (reqId: number, path: string) =>
    guard(reqId, async () => sftp.attrs(reqId, attributesOf(await lstat((await resolve(path)).host))));
  sftp.on('STAT', statPath);
  sftp.on('LSTAT', statPath);
  sftp.on('SETSTAT', (reqId, path) =>
    guard(reqId, async () => {
      await lstat((await resolve(path)).host);
      ok(reqId);
    }),
  );

  sftp.on('OPEN', (reqId, filename, flags, attrs) =>
    guard(reqId, async () => {
      needsRoom();
      const { host } = await resolve(filename);
      const mode = typeof attrs?.mode === 'number' ? attrs.mode & 0o777 : 0o644;
      addHandle(reqId, { kind: 'file', file: await open(host, openFlagsOf(flags), mode) });
    }),
  );
  sftp.on('READ', (reqId, buffer, offset, length) =>
    guard(reqId, async () => {
      const [, handle] = lookup(buffer);
      if (handle.kind !== 'file') throw new SftpRefusal(STATUS_CODE.FAILURE, 'Not a file');
      const chunk = Buffer.alloc(Math.min(length, MAX_READ));
      const { bytesRead } = await handle.file.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) sftp.status(reqId, STATUS_CODE.EOF);
      else sftp.data(reqId, chunk.subarray(0, bytesRead));
    }),
  );
  sftp.on('WRITE', (reqId, buffer, offset, data) =>
    guard(reqId, async () => {
      const [, handle] = lookup(buffer);
      if (handle.kind !== 'file') throw new SftpRefusal(STATUS_CODE.FAILURE, 'Not a file');
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.file.write(data, written, data.length - written, offset + written);
        written += bytesWritten;
      }
      ok(reqId);
    }),
  );
  sftp.on('FSTAT', (reqId, buffer) =>
    guard(reqId, async () => {
      const [, handle] = lookup(buffer);
      sftp.attrs(reqId, attributesOf(handle.kind === 'file' ? await handle.file.stat() : await lstat(handle.host)));
    }),
  );
  sftp.on('FSETSTAT', (reqId, buffer) =>
    guard(reqId, async () => {
      lookup(buffer);
      ok(reqId);
    }),
  );
  sftp.on('CLOSE', (reqId, buffer) =>
    guard(reqId, async () => {
      const [id, handle] = lookup(buffer);
      handles.delete(id);
      if (handle.kind === 'file') await handle.file.close();
      ok(reqId);
    }),
  );

  sftp.on('OPENDIR', (reqId, path) =>
    guard(reqId, async () => {
      needsRoom();
      const { host } = await resolve(path);
      if (!(await lstat(host)).isDirectory()) throw new SftpRefusal(STATUS_CODE.FAILURE, 'Not a directory');
      addHandle(reqId, { kind: 'dir', host, listed: false });
    }),
  );
  sftp.on('READDIR', (reqId, buffer) =>
    guard(reqId, async () => {
      const [, handle] = lookup(buffer);
      if (handle.kind !== 'dir') throw new SftpRefusal(STATUS_CODE.FAILURE, 'Not a directory');
      if (handle.listed) return sftp.status(reqId, STATUS_CODE.EOF);
      handle.listed = true;
      const entries: FileEntry[] = [];
      for (const name of ['.', '..', ...(await readdir(handle.host)).sort()]) {
        const stats = await lstat(join(handle.host, name)).catch(() => undefined);
        if (stats) entries.push({ filename: name, longname: longnameOf(name, stats, owner), attrs: attributesOf(stats) });
      }
      sftp.name(reqId, entries);
    }),
  );
  sftp.on('MKDIR', (reqId, path, attrs) =>
    guard(reqId, async () => {
      const resolved = await resolve(path);
      refuseRoot(resolved);
      await mkdir(resolved.host, { mode: typeof attrs?.mode === 'number' ? attrs.mode & 0o777 : 0o755 });
      ok(reqId);
    }),
  );
  sftp.on('RMDIR', (reqId, path) =>
    guard(reqId, async () => {
      const resolved = await resolve(path);
      refuseRoot(resolved);
      await rmdir(resolved.host);
      ok(reqId);
    }),
  );
  sftp.on('REMOVE', (reqId, path) =>
    guard(reqId, async () => {
      const resolved = await resolve(path);
      refuseRoot(resolved);
      if ((await lstat(resolved.host)).isDirectory()) throw new SftpRefusal(STATUS_CODE.FAILURE, 'Is a directory');
      await unlink(resolved.host);
      ok(reqId);
    }),
  );
  // SFTP v3 RENAME never replaces an existing file (as OpenSSH's server answers, which links then unlinks).
  sftp.on('RENAME', (reqId, oldPath, newPath) =>
    guard(reqId, async () => {
      const [from, to] = [await resolve(oldPath), await resolve(newPath)];
      refuseRoot(from);
      refuseRoot(to);
      await lstat(from.host);
      if (await lstat(to.host).then(() => true, () => false)) throw new SftpRefusal(STATUS_CODE.FAILURE, 'Target exists');
      await rename(from.host, to.host);
      ok(reqId);
    }),
  );

  // The client is done (OpenSSH's sftp closes its side and waits for ours): end the channel too.
  sftp.on('end', () => sftp.end());
  // A dropped connection must not leak descriptors.
  sftp.on('close', () => {
    for (const handle of handles.values()) if (handle.kind === 'file') void handle.file.close().catch(() => undefined);
    handles.clear();
  });
}
