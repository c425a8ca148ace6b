import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { freePort, stopChild, tailBuffer, waitUntil } from '../../../scripts/local/processes.ts';

/**
 * OpenSSH's own `internal-sftp` on a loopback port (a throwaway sshd config and host key, chrooted, key login for
 * root), for the tests that keep our SFTP code honest against the real server. It needs root (sshd's chroot) and
 * Debian's openssh-server: `whyNoSshd` says why not when the machine lacks either, so those tests skip, saying why.
 */
const SSHD = '/usr/sbin/sshd';

type KeyPair = ReturnType<typeof ssh2.utils.generateKeyPairSync>;

export const whyNoSshd: string | undefined =
  process.getuid?.() !== 0 ? 'not running as root (sshd needs root for its chroot)' : !existsSync(SSHD) ? `${SSHD} is missing (apt-get install -y openssh-server)` : undefined;

export interface LoopbackSshd {
  base: string;
  /** The folder the SFTP session sees as `/`. */
  chroot: string;
  port: number;
  hostKey: KeyPair;
  clientKey: KeyPair;
  /** What sshd printed lately, for failure messages. */
  output: () => string;
  stop(): Promise<void>;
}

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

/** An ed25519 pair ssh2 reads back: about one in 250 it generates, its own parser calls malformed (scripts/local/sftp.ts). */
function readableKeyPair(): KeyPair {
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair;
  }
  throw new Error('Could not make a key pair that ssh2 reads back');
}

/** Starts sshd under a fresh folder named from `prefix`, and waits until it greets. */
export async function startLoopbackSshd(prefix: string): Promise<LoopbackSshd> {
  // sshd refuses a chroot any part of whose path others may write, so not under /tmp: /run is root's, 0755.
  const base = mkdtempSync(`/run/${prefix}-`);
  const chroot = join(base, 'chroot');
  const hostKey = readableKeyPair();
  const clientKey = readableKeyPair();
  const output = tailBuffer();
  mkdirSync(chroot, { mode: 0o755 });
  // sshd's privilege separation directory (made by the service's unit where sshd runs as a service).
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  writeFileSync(join(base, 'host_ed25519'), hostKey.private, { mode: 0o600 });
  writeFileSync(join(base, 'authorized_keys'), `${clientKey.public}\n`, { mode: 0o600 });
  const port = await freePort();
  const config = join(base, 'sshd_config');
  writeFileSync(config, sshdConfig({ port, base, chroot }), { mode: 0o600 });
  const sshd: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  sshd.stdout?.on('data', output.push);
  sshd.stderr?.on('data', output.push);
  const stop = async () => {
    await stopChild(sshd);
    rmSync(base, { recursive: true, force: true });
  };
  try {
    await waitUntil('sshd', () => answersSsh(port), { timeoutMs: 15_000, child: sshd, output: output.read });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, chroot, port, hostKey, clientKey, output: output.read, stop };
}
