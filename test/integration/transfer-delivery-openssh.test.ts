import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../lambdas/transfers/delivery/index.ts';
import { openSftpDestination, SFTP_UNREACHABLE_MESSAGE, sshFingerprint } from '../../lambdas/transfers/delivery/sftp-destination.ts';
import { startLoopbackSshd, whyNoSshd, type LoopbackSshd } from './support/loopback-sshd.ts';

/**
 * The transfers' SFTP client against OpenSSH's own `internal-sftp` (a loopback sshd with a throwaway config and host
 * key), so the delivery is not shaped only by the stand-in. sshd needs root for its chroot and Debian's
 * openssh-server; elsewhere the test is skipped, saying why. Login is by key here: a password login would need an
 * account password on this machine, and the client code after login is the same.
 */

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

if (whyNoSshd) {
  describe('transfer delivery to OpenSSH internal-sftp', () => {
    it.skip(`skipped: ${whyNoSshd}`, () => {});
  });
} else {
  describe('transfer delivery to OpenSSH internal-sftp', () => {
    let sshd: LoopbackSshd;
    let fingerprint = '';
    let chroot = '';
    const output = { read: () => sshd.output() };

    beforeAll(async () => {
      sshd = await startLoopbackSshd('verity-delivery-sshd');
      chroot = sshd.chroot;
      const parsedHostKey = ssh2.utils.parseKey(sshd.hostKey.public);
      if (parsedHostKey instanceof Error) throw parsedHostKey;
      fingerprint = sshFingerprint(parsedHostKey.getPublicSSH());
    });

    afterAll(async () => {
      await sshd?.stop();
    });

    const target = () => ({ host: '127.0.0.1', port: sshd.port, username: 'root', privateKey: sshd.clientKey.private, hostKeyFingerprint: fingerprint, rootDirectory: '/drop/verity' });

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

    it('refuses the server when its host key is not the pinned one, without repeating the key it showed', async () => {
      const wrong = await openSftpDestination({ ...target(), hostKeyFingerprint: `SHA256:${'B'.repeat(43)}` }).catch((error: unknown) => error);
      expect(wrong).toBeInstanceOf(DeliveryError);
      expect(wrong).toMatchObject({ message: SFTP_UNREACHABLE_MESSAGE });
      expect((wrong as Error).message).not.toContain(fingerprint);
    });
  });
}
