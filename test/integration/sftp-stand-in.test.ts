import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSftp, sha256, uploadScenario } from './support/sftp-scenario.ts';
import { stack } from './support/stack.ts';

const run = promisify(execFile);

/** The SFTP stand-in of the local stack (a customer's SFTP server that transfers deliver to). */
describe('SFTP stand-in', () => {
  const sftpOf = () => stack().sftp;
  const login = (password = sftpOf().password) =>
    openSftp({ host: sftpOf().host, port: sftpOf().port, username: sftpOf().username, password, hostPublicKey: sftpOf().hostPublicKey });
  // Each test works in its own folder of the served root.
  const folder = () => `run-${randomBytes(4).toString('hex')}`;

  it('takes an upload through the ssh2 client, lists it and reads it back, with the host key it announced', async () => {
    const { sftp, close } = await login();
    try {
      const base = folder();
      const content = randomBytes(200_000);
      const transcript = await uploadScenario(sftp, content, base);
      expect(transcript).toMatchObject({
        home: '/',
        mkdir: true,
        partSize: content.length,
        rename: true,
        renameOverExisting: { ok: false, code: 4 },
        remove: true,
        statRemoved: { ok: false, code: 2 },
        openMissing: { ok: false, code: 2 },
        setstat: true,
        escapeRead: 'refused',
      });
      expect(transcript.listing).toEqual(['other.part 13', `recording.bin ${content.length}`]);
      expect(readFileSync(join(sftpOf().root, base, 'upload/recording.bin')).equals(content)).toBe(true);
    } finally {
      close();
    }
  });

  it('refuses a wrong password and an unknown user', async () => {
    await expect(login('not-the-password')).rejects.toThrow(/authentication methods failed/i);
    await expect(
      openSftp({ host: sftpOf().host, port: sftpOf().port, username: 'root', password: sftpOf().password, hostPublicKey: sftpOf().hostPublicKey }),
    ).rejects.toThrow(/authentication methods failed/i);
  });

  it('never reaches outside its folder: .., absolute host paths and planted symbolic links are refused', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'verity-sftp-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'not for the client');
    const base = folder();
    mkdirSync(join(sftpOf().root, base));
    symlinkSync(outside, join(sftpOf().root, base, 'link'));
    symlinkSync(join(outside, 'secret.txt'), join(sftpOf().root, base, 'secret-link.txt'));
    const { sftp, close } = await login();
    const code = (call: (done: (error?: Error | null) => void) => void) =>
      new Promise<unknown>((resolve) => call((error) => resolve(error ? (error as { code?: unknown }).code : 'ok')));
    try {
      expect(await code((done) => sftp.stat(`${base}/../..`, done))).toBe(3);
      expect(await code((done) => sftp.open(`${base}/../../escaped.bin`, 'w', done))).toBe(3);
      expect(await code((done) => sftp.realpath('..', done))).toBe(3);
      // `/` is the served folder: the host's own absolute path names nothing there.
      expect(await code((done) => sftp.stat(join(outside, 'secret.txt'), done))).toBe(2);
      expect(await code((done) => sftp.open(`${base}/link/secret.txt`, 'r', done))).toBe(3);
      expect(await code((done) => sftp.readdir(`${base}/link`, done))).toBe(3);
      expect(await code((done) => sftp.open(`${base}/secret-link.txt`, 'r', done))).toBe(3);
      expect(await code((done) => sftp.open(`${base}/link/new.txt`, 'w', done))).toBe(3);
      expect(await code((done) => sftp.symlink('/etc/passwd', `${base}/made-link`, done))).toBe(8);
      expect(await code((done) => sftp.rmdir('/', done))).toBe(3);
      expect(existsSync(join(sftpOf().root, '..', 'escaped.bin'))).toBe(false);
      expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    } finally {
      close();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  describe("with Debian's OpenSSH client (sftp, password through sshpass)", () => {
    const work = mkdtempSync(join(tmpdir(), 'verity-openssh-client-'));
    const knownHosts = join(work, 'known_hosts');
    /** Runs `sftp -b -` with the commands on stdin; its exit code and output (never throws). */
    const openSshSftp = async (commands: string, password = sftpOf().password) => {
      const args = [
        '-p',
        password,
        'sftp',
        '-oBatchMode=no',
        `-oUserKnownHostsFile=${knownHosts}`,
        '-oStrictHostKeyChecking=yes',
        '-oPubkeyAuthentication=no',
        '-oPreferredAuthentications=password',
        '-oNumberOfPasswordPrompts=1',
        '-oConnectTimeout=10',
        '-P',
        String(sftpOf().port),
        '-b',
        '-',
        `${sftpOf().username}@${sftpOf().host}`,
      ];
      const child = run('sshpass', args, { cwd: work, timeout: 30_000 });
      child.child.stdin?.end(commands);
      return child.then(
        ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
      );
    };

    beforeAll(async () => {
      for (const tool of ['sftp', 'sshpass', 'sha256sum']) {
        await run('sh', ['-c', `command -v ${tool}`]).catch(() => {
          throw new Error(`${tool} is missing: apt-get install -y openssh-client sshpass (see README, Prerequisites)`);
        });
      }
      // The host key the stand-in announced is the only one accepted (StrictHostKeyChecking=yes).
      writeFileSync(knownHosts, `[${sftpOf().host}]:${sftpOf().port} ${sftpOf().hostPublicKey}\n`);
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('puts a file whose sha256sum on disk is the one sent', async () => {
      const base = folder();
      const content = randomBytes(1_000_000);
      writeFileSync(join(work, 'evidence.bin'), content);
      const result = await openSshSftp(`mkdir ${base}\nput evidence.bin ${base}/evidence.bin\nls -l ${base}\n`);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain(`${content.length}`);
      const onDisk = await run('sha256sum', [join(sftpOf().root, base, 'evidence.bin')]);
      expect(onDisk.stdout.split(' ')[0]).toBe(sha256(content));
    });

    it('refuses a put out of the folder', async () => {
      writeFileSync(join(work, 'escape.bin'), 'escape');
      const result = await openSshSftp('put escape.bin ../../escape.bin\n');
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toMatch(/Permission denied/);
      expect(existsSync(join(sftpOf().root, '..', 'escape.bin'))).toBe(false);
      expect(existsSync(join(sftpOf().root, '..', '..', 'escape.bin'))).toBe(false);
    });

    it('refuses a wrong password', async () => {
      const result = await openSshSftp('ls\n', 'wrong-password');
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(/Permission denied/);
    });
  });
});
