import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, stopChild, tailBuffer, waitUntil } from '../../scripts/local/processes.ts';
import { openSftp, sha256, uploadScenario } from './support/sftp-scenario.ts';
import { stack } from './support/stack.ts';

/**
 * Keeps the SFTP stand-in honest: the same upload scenario, through the same `ssh2` client code, against OpenSSH's
 * own `internal-sftp` (a loopback sshd, chrooted, key login) and against the stand-in; the transcripts must agree.
 * Runs only where the machine allows it: as root (sshd's chroot needs it) with `/usr/sbin/sshd` (Debian's
 * openssh-server, which `.ci/run` installs when it runs as root). Elsewhere it is skipped, saying why.
 */
const SSHD = '/usr/sbin/sshd';
const whyNot = process.getuid?.() !== 0 ? 'not running as root (sshd needs root for its chroot)' : !existsSync(SSHD) ? `${SSHD} is missing (apt-get install -y openssh-server)` : undefined;

function sshdConfig(options: { port: number; base: string; chroot: string }): string {
  return [
    `Port ${options.port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(options.base, 'host_ed25519')}`,
    'PidFile none',
    'UsePAM no',
    'PermitRootLogin prohibit-password',
    'AllowUsers root',
    'PubkeyAuthentication yes',
    `AuthorizedKeysFile ${join(options.base, 'authorized_keys')}`,
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'Subsystem sftp internal-sftp',
    `ChrootDirectory ${options.chroot}`,
    'ForceCommand internal-sftp',
    'AllowTcpForwarding no',
    'AllowAgentForwarding no',
    'X11Forwarding no',
    'PermitTTY no',
    'LogLevel ERROR',
    '',
  ].join('\n');
}

/** True once something on the port greets with an SSH banner. */
function answersSsh(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString('latin1').startsWith('SSH-')));
  });
}

if (whyNot) {
  describe('SFTP stand-in against OpenSSH internal-sftp', () => {
    it.skip(`skipped: ${whyNot}`, () => {});
  });
} else {
  describe('SFTP stand-in against OpenSSH internal-sftp', () => {
    // sshd refuses a chroot any part of whose path is writable by others, so not under /tmp: /run is root's, 0755.
    const base = mkdtempSync('/run/verity-sshd-');
    const chroot = join(base, 'chroot');
    const hostKey = ssh2.utils.generateKeyPairSync('ed25519');
    const clientKey = ssh2.utils.generateKeyPairSync('ed25519');
    const output = tailBuffer();
    let sshd: ChildProcess | undefined;
    let port = 0;

    beforeAll(async () => {
      mkdirSync(chroot, { mode: 0o755 });
      // sshd's privilege separation directory (made by the service's unit where sshd runs as a service).
      if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
      writeFileSync(join(base, 'host_ed25519'), hostKey.private, { mode: 0o600 });
      writeFileSync(join(base, 'authorized_keys'), `${clientKey.public}\n`, { mode: 0o600 });
      port = await freePort();
      const config = join(base, 'sshd_config');
      writeFileSync(config, sshdConfig({ port, base, chroot }), { mode: 0o600 });
      expect(statSync(base).mode & 0o022).toBe(0);
      sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      sshd.stdout?.on('data', output.push);
      sshd.stderr?.on('data', output.push);
      await waitUntil('sshd', () => answersSsh(port), { timeoutMs: 15_000, child: sshd, output: output.read });
    });

    afterAll(async () => {
      if (sshd) await stopChild(sshd);
      rmSync(base, { recursive: true, force: true });
    });

    it('the same upload gives the same transcript, and the same bytes on disk', async () => {
      const content = randomBytes(300_000);
      const folder = `compare-${randomBytes(4).toString('hex')}`;

      const openssh = await openSftp({ host: '127.0.0.1', port, username: 'root', privateKey: clientKey.private, hostPublicKey: hostKey.public });
      const theirs = await uploadScenario(openssh.sftp, content, folder).finally(() => openssh.close());

      const sftp = stack().sftp;
      const standIn = await openSftp({ host: sftp.host, port: sftp.port, username: sftp.username, password: sftp.password, hostPublicKey: sftp.hostPublicKey });
      const ours = await uploadScenario(standIn.sftp, content, folder).finally(() => standIn.close());

      expect(ours, `sshd said:\n${output.read()}`).toEqual(theirs);
      expect(theirs.readBackSha256).toBe(sha256(content));
      expect(sha256(readFileSync(join(chroot, folder, 'upload/recording.bin')))).toBe(sha256(content));
      expect(sha256(readFileSync(join(sftp.root, folder, 'upload/recording.bin')))).toBe(sha256(content));
    });
  });
}
