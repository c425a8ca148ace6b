import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../lambdas/transfers/delivery/index.ts';
import { openSftpDestination, sshFingerprint } from '../../lambdas/transfers/delivery/sftp-destination.ts';
import { freePort, stopChild, tailBuffer, waitUntil } from '../../scripts/local/processes.ts';

/**
 * The transfers' SFTP client against OpenSSH's own `internal-sftp` (a loopback sshd with a throwaway config and host
 * key), so the delivery is not shaped only by the stand-in. sshd needs root for its chroot and Debian's
 * openssh-server; elsewhere the test is skipped, saying why. Login is by key here: a password login would need an
 * account password on this machine, and the client code after login is the same.
 */
const SSHD = '/usr/sbin/sshd';
const whyNot = process.getuid?.() !== 0 ? 'not running as root (sshd needs root for its chroot)' : !existsSync(SSHD) ? `${SSHD} is missing (apt-get install -y openssh-server)` : undefined;

const sha256sum = (file: string) => execFileSync('sha256sum', [file]).toString().split(' ')[0];

async function* generated(bytes: number): AsyncGenerator<Uint8Array> {
  for (let sent = 0, index = 0; sent < bytes; index += 1) {
    const size = Math.min(64 * 1024, bytes - sent);
    const chunk = Buffer.alloc(size);
    for (let at = 0; at < size; at += 32) createHash('sha256').update(`${index}:${at}`).digest().copy(chunk, at);
    sent += size;
    yield chunk;
  }
}

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
  describe('transfer delivery to OpenSSH internal-sftp', () => {
    it.skip(`skipped: ${whyNot}`, () => {});
  });
} else {
  describe('transfer delivery to OpenSSH internal-sftp', () => {
    // sshd refuses a chroot any part of whose path others may write, so not under /tmp: /run is root's, 0755.
    const base = mkdtempSync('/run/verity-delivery-sshd-');
    const chroot = join(base, 'chroot');
    const hostKey = ssh2.utils.generateKeyPairSync('ed25519');
    const clientKey = ssh2.utils.generateKeyPairSync('ed25519');
    const output = tailBuffer();
    let sshd: ChildProcess | undefined;
    let port = 0;
    const parsedHostKey = ssh2.utils.parseKey(hostKey.public);
    if (parsedHostKey instanceof Error) throw parsedHostKey;
    const fingerprint = sshFingerprint(parsedHostKey.getPublicSSH());

    beforeAll(async () => {
      mkdirSync(chroot, { mode: 0o755 });
      if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
      writeFileSync(join(base, 'host_ed25519'), hostKey.private, { mode: 0o600 });
      writeFileSync(join(base, 'authorized_keys'), `${clientKey.public}\n`, { mode: 0o600 });
      port = await freePort();
      const config = join(base, 'sshd_config');
      writeFileSync(
        config,
        [
          `Port ${port}`,
          'ListenAddress 127.0.0.1',
          `HostKey ${join(base, 'host_ed25519')}`,
          'PidFile none',
          'UsePAM no',
          'PermitRootLogin prohibit-password',
          'AllowUsers root',
          `AuthorizedKeysFile ${join(base, 'authorized_keys')}`,
          'PasswordAuthentication no',
          'KbdInteractiveAuthentication no',
          'Subsystem sftp internal-sftp',
          `ChrootDirectory ${chroot}`,
          'ForceCommand internal-sftp',
          'AllowTcpForwarding no',
          'X11Forwarding no',
          'PermitTTY no',
          'LogLevel ERROR',
          '',
        ].join('\n'),
        { mode: 0o600 },
      );
      sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      sshd.stdout?.on('data', output.push);
      sshd.stderr?.on('data', output.push);
      await waitUntil('sshd', () => answersSsh(port), { timeoutMs: 15_000, child: sshd, output: output.read });
    });

    afterAll(async () => {
      if (sshd) await stopChild(sshd);
      rmSync(base, { recursive: true, force: true });
    });

    const target = () => ({ host: '127.0.0.1', port, username: 'root', privateKey: clientKey.private, hostKeyFingerprint: fingerprint, rootDirectory: '/drop/verity' });

    it('delivers through a temporary name, refuses to replace, and reports what sha256sum reads', async () => {
      const destination = await openSftpDestination(target());
      try {
        const size = 5 * 1024 * 1024 + 3;
        const delivered = await destination.put('2026/11/24/recordings.zip.pgp', generated(size));
        const onDisk = join(chroot, 'drop/verity/2026/11/24/recordings.zip.pgp');
        expect(delivered, `sshd said:\n${output.read()}`).toEqual({ path: '2026/11/24/recordings.zip.pgp', bytes: size, sha256: sha256sum(onDisk) });
        expect(readdirSync(join(chroot, 'drop/verity/2026/11/24'))).toEqual(['recordings.zip.pgp']);
        expect(await destination.exists('2026/11/24/recordings.zip.pgp')).toEqual({ bytes: size });
        const refused = await destination.put('2026/11/24/recordings.zip.pgp', generated(10)).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(DeliveryError);
        expect(refused).toMatchObject({ retryable: false });
        expect(sha256sum(onDisk)).toBe(delivered.sha256);
        expect(readdirSync(join(chroot, 'drop/verity/2026/11/24'))).toEqual(['recordings.zip.pgp']);
      } finally {
        await destination.close();
      }
    });

    it('refuses the server when its host key is not the pinned one', async () => {
      const wrong = await openSftpDestination({ ...target(), hostKeyFingerprint: `SHA256:${'B'.repeat(43)}` }).catch((error: unknown) => error);
      expect(wrong).toBeInstanceOf(DeliveryError);
      expect(wrong).toMatchObject({ retryable: false, message: expect.stringContaining(fingerprint) });
    });
  });
}
