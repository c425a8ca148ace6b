import { createCipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openSftpDestination } from '../../lambdas/transfers/delivery/sftp-destination.ts';
import { packageTransfer } from '../../lambdas/transfers/packaging/packager.ts';

/**
 * Child of the transfers bench: delivers <mib> MiB of generated recording bytes to the SFTP server described by the
 * environment (BENCH_SFTP = JSON of host, port, username, password, hostKeyFingerprint) through the transfers' SFTP
 * destination, and prints its own seconds and peak RSS as JSON. One process per mode, so each peak is that mode's.
 * Modes: `plain` (the bytes as they are: the baseline), `zip-password-pgp` (ZippedWithPassword + PGP of one
 * recording, `.m4a`, streamed from the packager straight into the upload) and `zip-password-pgp-only` (the same
 * packaging read to nowhere: how much of the delivery's time is the packaging's own).
 * The bytes are deterministic (AES-256-CTR under a fixed key, made 64 KiB at a time): the same in every run and in
 * both modes, never held whole, and incompressible like recordings.
 */
const [mode, mibArg, folder] = process.argv.slice(2);
const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;
const total = Number(mibArg) * MIB;
const MODES = ['plain', 'zip-password-pgp', 'zip-password-pgp-only'];
if (!MODES.includes(mode ?? '') || !(total > 0) || !folder) throw new Error(`usage: transfers-child.ts <${MODES.join('|')}> <mib> <folder>`);
const sftp = JSON.parse(process.env.BENCH_SFTP ?? '{}') as { host: string; port: number; username: string; password: string; hostKeyFingerprint: string };

async function* generated(): AsyncGenerator<Uint8Array> {
  const cipher = createCipheriv('aes-256-ctr', Buffer.alloc(32, 7), Buffer.alloc(16, 0));
  const zeros = Buffer.alloc(CHUNK);
  for (let sent = 0; sent < total; sent += CHUNK) yield cipher.update(zeros.subarray(0, Math.min(CHUNK, total - sent)));
}

const destination = await openSftpDestination({ ...sftp, rootDirectory: `/${folder}` });
const started = performance.now();
const delivered: Array<{ path: string; bytes: number; sha256: string }> = [];
if (mode === 'plain') {
  delivered.push(await destination.put('recording.m4a', generated()));
} else {
  const publicKey = readFileSync(new URL('../local/seed/demo-transfer-pgp-public.asc', import.meta.url), 'utf8');
  const packaging = await packageTransfer([{ name: 'recording.m4a', size: total, modifiedAt: new Date(0), open: generated }], {
    format: 'ZippedWithPassword',
    zipPassword: 'bench password',
    pgpPublicKey: publicKey,
  });
  for await (const output of packaging.outputs) {
    if (mode === 'zip-password-pgp-only') {
      const reader = output.stream.getReader();
      let bytes = 0;
      for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength;
      delivered.push({ path: output.name, bytes, sha256: (await output.digest).sha256 });
      continue;
    }
    delivered.push(await destination.put(output.name, output.stream));
    const digest = await output.digest;
    if (digest.sha256 !== delivered.at(-1)?.sha256) throw new Error(`${output.name}: the packager and the destination disagree on the SHA-256`);
  }
}
const seconds = (performance.now() - started) / 1000;
await destination.close();

/** Peak RSS of this process in MiB: VmHWM on Linux (see decrypt-child.ts for why not getrusage). */
function peakRssMiB(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS / 1024;
}
console.log(JSON.stringify({ seconds, maxRssMiB: peakRssMiB(), delivered }));
