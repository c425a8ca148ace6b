import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { startSftp } from '../local/sftp.ts';
import { formatTable } from './measure.ts';

/**
 * The transfers part of `npm run bench` (`npm run bench -- transfers [--mib n]` alone, or BENCH_TRANSFERS_MIB):
 * N MiB (default 1024) of generated recording bytes packaged as ZippedWithPassword + PGP and streamed through the
 * transfers' SFTP destination to the local SFTP stand-in, against a plain SFTP put of the same bytes through the same
 * client, in the same run. Throughput is counted in recording bytes; the ratio aims at ≥ 0.5 of the plain put, and
 * each mode's peak RSS (its own child process: packaging and delivery, not the server) at < 256 MiB. What arrived is
 * hashed on disk and must match what the destination reported. A last row packages without sending, to show how much
 * of the time is the packaging's own. Loopback only; nothing is asserted.
 *
 * It measures packaging and delivery, not the transfer job around them: the job adds reading and decrypting the
 * sealed recording from the raw bucket and its bookkeeping per file, which the payload bench measures separately.
 */
const run = promisify(execFile);

interface ChildResult {
  seconds: number;
  maxRssMiB: number;
  delivered: Array<{ path: string; bytes: number; sha256: string }>;
}

export function transfersMib(args: readonly string[]): number {
  const flag = args.indexOf('--mib');
  const value = Number(flag >= 0 ? args[flag + 1] : (process.env.BENCH_TRANSFERS_MIB ?? 1024));
  if (!Number.isInteger(value) || value < 1) throw new Error('--mib (or BENCH_TRANSFERS_MIB) must be a whole number of MiB, at least 1');
  return value;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function benchTransfers(mib: number): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), 'verity-bench-transfers-'));
  const account = { username: 'bench', password: randomBytes(12).toString('base64url') };
  const server = await startSftp({ directory, port: 0, ...account });
  const child = fileURLToPath(new URL('./transfers-child.ts', import.meta.url));
  const env = {
    ...process.env,
    BENCH_SFTP: JSON.stringify({ host: server.host, port: server.port, ...account, hostKeyFingerprint: server.hostKeyFingerprint }),
  };
  const runChild = async (mode: string): Promise<ChildResult> => {
    // process.execArgv carries tsx's loader flags, so the child resolves `#core/*` and .ts imports as this process does.
    const { stdout } = await run(process.execPath, [...process.execArgv, child, mode, String(mib), mode], { timeout: 3_600_000, env });
    const result = JSON.parse(stdout.trim().split('\n').pop() as string) as ChildResult;
    for (const file of mode.endsWith('-only') ? [] : result.delivered) {
      const arrived = join(server.root, mode, file.path);
      if ((await sha256Of(arrived)) !== file.sha256) throw new Error(`${mode}: ${file.path} on disk does not hash to what the destination reported`);
    }
    // Each mode leaves the disk as it found it, so a 1 GiB run needs room for one delivery at a time.
    rmSync(join(server.root, mode), { recursive: true, force: true });
    return result;
  };
  try {
    const plain = await runChild('plain');
    const packaged = await runChild('zip-password-pgp');
    const packagingOnly = await runChild('zip-password-pgp-only');
    const rate = (result: ChildResult) => mib / result.seconds;
    const ratio = rate(packaged) / rate(plain);
    const sent = (result: ChildResult) => `${(result.delivered.reduce((sum, file) => sum + file.bytes, 0) / 1024 / 1024).toFixed(0)} MiB`;
    const rows = [
      ['plain SFTP put (baseline)', sent(plain), `${rate(plain).toFixed(1)} MiB/s`, '1.00', '', `${plain.maxRssMiB.toFixed(0)} MiB`, plain.maxRssMiB < 256 ? 'ok' : 'OVER 256 MiB'],
      [
        'ZippedWithPassword + PGP → SFTP',
        sent(packaged),
        `${rate(packaged).toFixed(1)} MiB/s`,
        ratio.toFixed(2),
        ratio >= 0.5 ? 'ok' : 'UNDER 0.5',
        `${packaged.maxRssMiB.toFixed(0)} MiB`,
        packaged.maxRssMiB < 256 ? 'ok' : 'OVER 256 MiB',
      ],
      ['(ZippedWithPassword + PGP alone, not sent)', sent(packagingOnly), `${rate(packagingOnly).toFixed(1)} MiB/s`, '', '', `${packagingOnly.maxRssMiB.toFixed(0)} MiB`, ''],
    ];
    return `${formatTable(['delivery', 'sent', 'throughput (recording bytes)', 'ratio', 'aim ≥ 0.5', 'peak RSS (child)', 'aim < 256 MiB'], rows)}\n(${mib} MiB of generated recording bytes, one child process per row, to the SFTP stand-in on loopback; packaging and delivery, not the transfer job)`;
  } finally {
    await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}
