import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackSshd, whyNoSshd, type LoopbackSshd } from './support/loopback-sshd.ts';
import { openSftp, sha256, uploadScenario } from './support/sftp-scenario.ts';
import { stack } from './support/stack.ts';

/**
 * Keeps the SFTP stand-in honest: the same upload scenario, through the same `ssh2` client code, against OpenSSH's
 * own `internal-sftp` (a loopback sshd, chrooted, key login) and against the stand-in; the transcripts must agree.
 * Runs only where the machine allows it: as root (sshd's chroot needs it) with `/usr/sbin/sshd` (Debian's
 * openssh-server, which `.ci/run` installs when it runs as root). Elsewhere it is skipped, saying why.
 */

if (whyNoSshd) {
  describe('SFTP stand-in against OpenSSH internal-sftp', () => {
    it.skip(`skipped: ${whyNoSshd}`, () => {});
  });
} else {
  describe('SFTP stand-in against OpenSSH internal-sftp', () => {
    let sshd: LoopbackSshd;

    beforeAll(async () => {
      sshd = await startLoopbackSshd('verity-sshd');
      expect(statSync(sshd.base).mode & 0o022).toBe(0);
    });

    afterAll(async () => {
      await sshd?.stop();
    });

    it('the same upload gives the same transcript, and the same bytes on disk', async () => {
      const content = randomBytes(300_000);
      const folder = `compare-${randomBytes(4).toString('hex')}`;

      const openssh = await openSftp({ host: '127.0.0.1', port: sshd.port, username: 'root', privateKey: sshd.clientKey.private, hostPublicKey: sshd.hostKey.public });
      const theirs = await uploadScenario(openssh.sftp, content, folder).finally(() => openssh.close());

      const sftp = stack().sftp;
      const standIn = await openSftp({ host: sftp.host, port: sftp.port, username: sftp.username, password: sftp.password, hostPublicKey: sftp.hostPublicKey });
      const ours = await uploadScenario(standIn.sftp, content, folder).finally(() => standIn.close());

      expect(ours, `sshd said:\n${sshd.output()}`).toEqual(theirs);
      expect(theirs.readBackSha256).toBe(sha256(content));
      expect(sha256(readFileSync(join(sshd.chroot, folder, 'upload/recording.bin')))).toBe(sha256(content));
      expect(sha256(readFileSync(join(sftp.root, folder, 'upload/recording.bin')))).toBe(sha256(content));
    });
  });
}
