import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ulid } from 'ulid';
import type { Dependencies } from '#core/dependencies.ts';
import { DEK_BYTES, decryptContent, encryptContent, IV_BYTES } from '#core/payloads/payload-crypto.ts';
import type { TransactOperation } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { interleavedMedians } from './measure.ts';

/**
 * The issue-6 part of `npm run bench` (DESIGN.md §7, §8):
 * 1. processing throughput: the real `decryptContent` (AES-256-GCM + SHA-256 + tag check) over a payload sealed in
 *    memory, streamed in 64 KiB chunks as S3 delivers them, as a ratio to `openssl speed -evp aes-256-gcm` at 16 KiB
 *    blocks measured in the same run (aim ≥ 0.5; the bench does SHA-256 as well, openssl only the cipher);
 * 2. peak RSS of a child process decrypting a 1 GiB sealed file from disk to /dev/null (aim < 256 MiB: constant memory);
 * 3. median `GET payloads?limit=50` at 100,000 payloads against 1,000 (aim ratio < 1.5: one Query page either way).
 */
export type BenchRow = [measure: string, result: string, aim: string, verdict: string];

const MIB = 1024 * 1024;
const THROUGHPUT_BYTES = Number(process.env.BENCH_THROUGHPUT_MIB ?? 256) * MIB;
const MEMORY_BYTES = Number(process.env.BENCH_MEMORY_MIB ?? 1024) * MIB;
const STREAM_CHUNK = 64 * 1024;
const run = promisify(execFile);

interface Sealed {
  dek: Buffer;
  iv: Buffer;
  checksum: string;
}

/**
 * Plaintext of `bytes` bytes as 1 MiB chunks (one random block repeated, each stamped with its index so no two
 * chunks are equal), hashed as it passes: never more than one chunk in memory.
 */
function plaintext(bytes: number, hash: ReturnType<typeof createHash>): Readable {
  const block = randomBytes(MIB);
  return Readable.from(
    (function* chunks() {
      for (let offset = 0, index = 0; offset < bytes; offset += MIB, index += 1) {
        const chunk = Buffer.from(block.subarray(0, Math.min(MIB, bytes - offset)));
        chunk.writeUInt32BE(index, 0);
        hash.update(chunk);
        yield chunk;
      }
    })(),
  );
}

/** Seals `bytes` of plaintext with streaming encryption into `sink` (a file, or a collector). */
async function sealInto(bytes: number, sink: Writable): Promise<Sealed> {
  const dek = randomBytes(DEK_BYTES);
  const iv = randomBytes(IV_BYTES);
  const hash = createHash('sha256');
  await pipeline(plaintext(bytes, hash), encryptContent(dek, iv), sink);
  return { dek, iv, checksum: hash.digest('hex') };
}

const discard = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

/** openssl's AES-256-GCM rate at 16 KiB blocks in bytes/s, or undefined when openssl is missing or says nothing usable. */
async function opensslGcmRate(): Promise<number | undefined> {
  try {
    const { stdout } = await run('openssl', ['speed', '-evp', 'aes-256-gcm', '-bytes', '16384', '-seconds', '3'], { timeout: 60_000 });
    // The last line reads like `AES-256-GCM    2628993.30k`: 1000s of bytes per second for the one block size asked.
    const match = /^aes-256-gcm\s+([\d.]+)k\s*$/im.exec(stdout);
    return match === null ? undefined : Number(match[1]) * 1000;
  } catch {
    return undefined;
  }
}

/** Bytes/s of decryptContent over `sealed` (in memory), streamed in 64 KiB chunks to a sink that drops them. */
async function decryptRate(ciphertext: Buffer, seal: Sealed): Promise<number> {
  const started = performance.now();
  await pipeline(
    Readable.from(
      (function* chunks() {
        for (let offset = 0; offset < ciphertext.length; offset += STREAM_CHUNK) yield ciphertext.subarray(offset, offset + STREAM_CHUNK);
      })(),
    ),
    decryptContent(seal.dek, seal.iv, seal.checksum),
    discard(),
  );
  return ciphertext.length / ((performance.now() - started) / 1000);
}

export async function measureThroughput(): Promise<BenchRow> {
  const measure = `processing throughput (decrypt + SHA-256, ${THROUGHPUT_BYTES / MIB} MiB)`;
  const aim = 'ratio ≥ 0.5';
  const parts: Buffer[] = [];
  const seal = await sealInto(
    THROUGHPUT_BYTES,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        parts.push(chunk);
        callback();
      },
    }),
  );
  const ciphertext = Buffer.concat(parts);
  parts.length = 0;
  await decryptRate(ciphertext, seal); // warm-up
  const rates: number[] = [];
  for (let round = 0; round < 3; round += 1) rates.push(await decryptRate(ciphertext, seal));
  const rate = Math.max(...rates);
  const reference = await opensslGcmRate();
  const mibs = (bytesPerSecond: number) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
  if (reference === undefined) return [measure, `${mibs(rate)}; openssl missing or unreadable: ratio skipped`, aim, 'skipped'];
  const ratio = rate / reference;
  return [measure, `${mibs(rate)} / openssl ${mibs(reference)} = ${ratio.toFixed(2)}`, aim, ratio >= 0.5 ? 'ok' : 'UNDER 0.5'];
}

export async function measurePeakMemory(): Promise<BenchRow> {
  const measure = `peak RSS decrypting ${MEMORY_BYTES / MIB} MiB from disk (child)`;
  const dir = mkdtempSync(join(tmpdir(), 'verity-bench-payload-'));
  try {
    const file = join(dir, 'sealed.bin');
    const seal = await sealInto(MEMORY_BYTES, createWriteStream(file));
    const child = fileURLToPath(new URL('./decrypt-child.ts', import.meta.url));
    // process.execArgv carries tsx's loader flags, so the child resolves `#core/*` and .ts imports as this process does.
    const { stdout } = await run(process.execPath, [...process.execArgv, child, file, seal.dek.toString('hex'), seal.iv.toString('hex'), seal.checksum], {
      timeout: 120_000,
    });
    const { maxRssMiB, seconds } = JSON.parse(stdout.trim().split('\n').pop() as string) as { maxRssMiB: number; seconds: number };
    return [measure, `${maxRssMiB.toFixed(0)} MiB (${seconds.toFixed(1)} s, tag and checksum verified)`, '< 256 MiB', maxRssMiB < 256 ? 'ok' : 'OVER 256 MiB'];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TRANSACTION_ITEMS = 99;
const PARALLEL_WRITES = 6;
const TYPES = ['Call', 'SMS', 'Interview', 'Photo', 'Call', 'MMS'] as const;

/**
 * `count` Processed payloads of `client` over 50 devices and the past year, written with keys.payload.item in
 * transactions of 99 from PARALLEL_WRITES workers (DynamoDB Local: ~400 items/s this way, plain puts were slower).
 */
async function writePayloads(deps: Dependencies, client: string, count: number): Promise<void> {
  const now = Date.now();
  const item = (index: number) => {
    const reference = ulid();
    const device = `bench-device-${index % 50}`;
    const time = new Date(now - Math.floor((index / count) * 365 * 86_400_000)).toISOString();
    return {
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: device }),
      client,
      device_reference: device,
      payload_reference: reference,
      payload_type: TYPES[index % TYPES.length] as string,
      payload_state: 'Processed',
      payload_time: time,
      uploaded_at: time,
      processed_at: time,
      updated_at: time,
      updated_by: 'bench',
      is_late: false,
      is_legacy: false,
      all_numbers: `+4477009${String(index % 100_000).padStart(5, '0')}`,
    };
  };
  const batches: TransactOperation[][] = [];
  for (let start = 0; start < count; start += TRANSACTION_ITEMS) {
    const size = Math.min(TRANSACTION_ITEMS, count - start);
    batches.push(Array.from({ length: size }, (_, offset) => ({ kind: 'put' as const, item: item(start + offset) })));
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_WRITES }, async () => {
      while (next < batches.length) await deps.table.transactWrite(batches[next++] as TransactOperation[]);
    }),
  );
}

/**
 * Median `GET payloads?limit=50` for tenant `small` with 1,000 payloads and `large` with 100,000 (written here), over
 * HTTP against the bench's stack.
 */
export async function measurePayloadPage(
  deps: Dependencies,
  apiUrl: string,
  tenants: { small: { client: string; token: string }; large: { client: string; token: string } },
  samples: number,
): Promise<BenchRow> {
  const [smallCount, largeCount] = [1_000, Number(process.env.BENCH_PAYLOADS ?? 100_000)];
  const started = performance.now();
  await Promise.all([writePayloads(deps, tenants.small.client, smallCount), writePayloads(deps, tenants.large.client, largeCount)]);
  console.log(`Wrote ${smallCount.toLocaleString('en-GB')} payloads (${tenants.small.client}) and ${largeCount.toLocaleString('en-GB')} (${tenants.large.client}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const url = (client: string) => `${apiUrl}/api/v1/${client}/payloads?limit=50`;
  const times = await interleavedMedians(
    { url: url(tenants.small.client), token: tenants.small.token },
    { url: url(tenants.large.client), token: tenants.large.token },
    samples,
  );
  const ratio = times.large / times.small;
  return [
    `GET payloads (page of 50) @ ${largeCount.toLocaleString('en-GB')} vs ${smallCount.toLocaleString('en-GB')}`,
    `${times.large.toFixed(1)} ms / ${times.small.toFixed(1)} ms = ${ratio.toFixed(2)}`,
    'ratio < 1.5',
    ratio < 1.5 ? 'ok' : 'OVER 1.5',
  ];
}
