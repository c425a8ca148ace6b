import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { sharedHashWorker } from '../../lambdas/payloads/processing/hash-worker.ts';
import { decryptContent } from '../../lambdas/device-crypto/payload-crypto.ts';

/**
 * Child of the payload bench: decrypts one sealed file through the real `decryptContent` transform into /dev/null,
 * hashing on the worker thread as processing does for a large payload, and prints its own peak RSS (worker
 * included: one process) as JSON. A separate process so the parent's buffers (the in-memory throughput run,
 * the local stack) do not count towards the peak.
 * Arguments: <sealed file> <dek hex> <iv hex> <checksum hex>.
 */
const [file, dekHex, ivHex, checksum] = process.argv.slice(2);
if (file === undefined || dekHex === undefined || ivHex === undefined || checksum === undefined) {
  throw new Error('usage: decrypt-child.ts <file> <dek hex> <iv hex> <checksum>');
}
const started = performance.now();
await pipeline(createReadStream(file), decryptContent(Buffer.from(dekHex, 'hex'), Buffer.from(ivHex, 'hex'), checksum, { hasher: sharedHashWorker.hasher() }), createWriteStream('/dev/null'));
const seconds = (performance.now() - started) / 1000;

/**
 * Peak RSS of this process in MiB. On Linux, VmHWM of /proc/self/status: the high-water mark of this process's own
 * memory. getrusage's maxRSS is not used there: at exec, Linux carries the forked parent's peak into it, so the child
 * of a bench holding hundreds of MiB would report the parent's size, not its own.
 */
function peakRssMiB(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS / 1024;
}
console.log(JSON.stringify({ maxRssMiB: peakRssMiB(), seconds }));
