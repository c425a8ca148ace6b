import { createHash } from 'node:crypto';
import ssh2, { type ConnectConfig, type SFTPWrapper } from 'ssh2';

/** An SFTP session through the `ssh2` client, the client the transfers use; the host key must be the one given. */
export async function openSftp(config: ConnectConfig & { hostPublicKey: string }): Promise<{ sftp: SFTPWrapper; close(): void }> {
  const { hostPublicKey, ...connect } = config;
  const expected = Buffer.from(hostPublicKey.split(' ')[1] ?? '', 'base64');
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve).once('error', reject);
    client.connect({ readyTimeout: 10_000, ...connect, hostVerifier: (key: Buffer) => key.equals(expected) });
  });
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => client.sftp((error, session) => (error ? reject(error) : resolve(session))));
  return { sftp, close: () => client.end() };
}

/** Runs an SFTP call; its answer, or the SFTP status code it failed with. */
function attempt<T>(call: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<{ ok: true; value: T } | { ok: false; code: unknown }> {
  return new Promise((resolve) => call((error, value) => resolve(error ? { ok: false, code: (error as { code?: unknown }).code } : { ok: true, value: value as T })));
}

function writeFile(sftp: SFTPWrapper, path: string, content: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = sftp.createWriteStream(path);
    stream.once('error', reject).once('close', () => resolve());
    stream.end(content);
  });
}

function readFile(sftp: SFTPWrapper, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => sftp.readFile(path, (error, data) => (error ? reject(error) : resolve(data))));
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The upload a transfer performs in `<folder>/upload` (a folder, a partial name, rename into place, list, read back),
 * plus the refusals a receiving server gives (rename over an existing file, a path out of the folder), written down
 * as a transcript.
 * Run against the stand-in and against OpenSSH's own internal-sftp, the two transcripts must agree.
 */
export async function uploadScenario(sftp: SFTPWrapper, content: Buffer, folder: string) {
  const dir = `${folder}/upload`;
  const other = Buffer.from('a second file');
  const transcript: Record<string, unknown> = {};
  const home = await attempt<string>((done) => sftp.realpath('.', done));
  transcript.home = home.ok ? home.value : home.code;
  transcript.mkdir = (await attempt((done) => sftp.mkdir(folder, () => sftp.mkdir(dir, done)))).ok;
  await writeFile(sftp, `${dir}/recording.part`, content);
  const stat = await attempt<{ size: number }>((done) => sftp.stat(`${dir}/recording.part`, done));
  transcript.partSize = stat.ok ? stat.value.size : stat.code;
  transcript.rename = (await attempt((done) => sftp.rename(`${dir}/recording.part`, `${dir}/recording.bin`, done))).ok;
  await writeFile(sftp, `${dir}/other.part`, other);
  transcript.renameOverExisting = await attempt((done) => sftp.rename(`${dir}/other.part`, `${dir}/recording.bin`, done));
  const listing = await attempt<Array<{ filename: string; attrs: { size: number } }>>((done) => sftp.readdir(dir, done));
  transcript.listing = listing.ok ? listing.value.map((entry) => `${entry.filename} ${entry.attrs.size}`).sort() : listing.code;
  transcript.readBackSha256 = sha256(await readFile(sftp, `/${dir}/recording.bin`));
  transcript.remove = (await attempt((done) => sftp.unlink(`${dir}/other.part`, done))).ok;
  transcript.statRemoved = await attempt((done) => sftp.stat(`${dir}/other.part`, done));
  transcript.openMissing = await attempt((done) => sftp.open(`${dir}/missing.bin`, 'r', done));
  transcript.setstat = (await attempt((done) => sftp.setstat(`${dir}/recording.bin`, { mtime: 1_700_000_000, atime: 1_700_000_000 }, done))).ok;
  // Out of the folder: both refuse (the stand-in refuses `..`; in a chroot the host's file is not there).
  transcript.escapeRead = (await attempt((done) => sftp.stat('/../../etc/passwd', done))).ok ? 'read' : 'refused';
  return transcript;
}
