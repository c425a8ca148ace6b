import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { decryptContent } from '#core/payloads/payload-crypto.ts';

/**
 * Child of the payload bench: decrypts one sealed file through the real `decryptContent` transform into /dev/null
 * and prints its own peak RSS as JSON. A separate process so the parent's buffers (the in-memory throughput run,
 * the local stack) do not count towards the peak.
 * Arguments: <sealed file> <dek hex> <iv hex> <checksum hex>.
 */
const [file, dekHex, ivHex, checksum] = process.argv.slice(2);
if (file === undefined || dekHex === undefined || ivHex === undefined || checksum === undefined) {
  throw new Error('usage: decrypt-child.ts <file> <dek hex> <iv hex> <checksum>');
}
const started = performance.now();
await pipeline(createReadStream(file), decryptContent(Buffer.from(dekHex, 'hex'), Buffer.from(ivHex, 'hex'), checksum), createWriteStream('/dev/null'));
const seconds = (performance.now() - started) / 1000;
// Linux reports maxRSS in KiB.
console.log(JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024, seconds }));
