import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ulid } from 'ulid';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sharedHashWorker } from '../../lambdas/payloads/processing/hash-worker.ts';
import { DEK_BYTES, decryptContent, encryptContent, IV_BYTES } from '../../lambdas/device-crypto/payload-crypto.ts';
import { inlineHasher } from '../../lambdas/payloads/processing/plaintext-hasher.ts';
import { interleavedMedians } from './measure.ts';
import { processedPayloadItem } from './payload-items.ts';

/**
 * The payloads part of `npm run bench` (DESIGN.md §7, §8):
 * 1. processing throughput: the real `decryptContent` (AES-256-GCM + SHA-256 + tag check) over a payload sealed in
 *    memory, streamed in 64 KiB chunks as S3 delivers them, as a ratio to `openssl speed -evp aes-256-gcm` at 16 KiB
 *    blocks measured in the same run (aim ≥ 0.5; the bench does SHA-256 as well, openssl only the cipher), hashing on
 *    the worker thread as processing does for large payloads; also inline, and the one-thread SHA-256 ceiling;
 * 2. peak RSS of a child process decrypting a 1 GiB sealed file from disk to /dev/null (aim < 256 MiB: constant memory);
 * 3. median `GET payloads?limit=50` at 100,000 payloads against 1,000 (aim ratio < 1.5: one Query page either way),
 *    the payloads written into the bench stack's DynamoDB Local (the store the services really query).
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

/** openssl's rate for `algorithm` at 16 KiB blocks in bytes/s, or undefined when openssl is missing or says nothing usable. */
async function opensslRate(algorithm: 'aes-256-gcm' | 'sha256'): Promise<number | undefined> {
  try {
    const { stdout } = await run('openssl', ['speed', '-evp', algorithm, '-bytes', '16384', '-seconds', '3'], { timeout: 60_000 });
    // The last line reads like `AES-256-GCM    2628993.30k`: 1000s of bytes per second for the one block size asked.
    const match = new RegExp(`^${algorithm}\\s+([\\d.]+)k\\s*$`, 'im').exec(stdout);
    return match === null ? undefined : Number(match[1]) * 1000;
  } catch {
    return undefined;
  }
}

const chunked = (data: Buffer) =>
  Readable.from(
    (function* chunks() {
      for (let offset = 0; offset < data.length; offset += STREAM_CHUNK) yield data.subarray(offset, offset + STREAM_CHUNK);
    })(),
  );

/** CPU time of the calling thread in ms (Linux: /proc/thread-self/stat, 10 ms ticks), or undefined elsewhere. */
function threadCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    // After the command name: state is field 0, utime field 11, stime field 12 (clock ticks, 100 per second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Bytes/s of decryptContent over `sealed` (in memory), streamed in 64 KiB chunks to a sink that drops them, and the
 * CPU time this (the main) thread spent: unlike the rate, that does not depend on other load on the machine.
 */
async function decryptRate(ciphertext: Buffer, seal: Sealed, hashing: 'worker' | 'inline'): Promise<RateRun> {
  const started = performance.now();
  const cpuBefore = threadCpuMs();
  const hasher = hashing === 'worker' ? sharedHashWorker.hasher() : inlineHasher();
  await pipeline(chunked(ciphertext), decryptContent(seal.dek, seal.iv, seal.checksum, { hasher }), discard());
  const cpuAfter = threadCpuMs();
  const rate = ciphertext.length / ((performance.now() - started) / 1000);
  return cpuBefore === undefined || cpuAfter === undefined ? { rate } : { rate, mainCpuMs: cpuAfter - cpuBefore };
}

/** Bytes/s of node's SHA-256 on one thread over `data` in 64 KiB chunks: what any one-stream checksum is held to. */
function nodeHashRate(data: Buffer): number {
  const started = performance.now();
  const hash = createHash('sha256');
  for (let offset = 0; offset < data.length; offset += STREAM_CHUNK) hash.update(data.subarray(offset, offset + STREAM_CHUNK));
  hash.digest();
  return data.length / ((performance.now() - started) / 1000);
}

const ROUNDS = 5;
interface RateRun {
  rate: number;
  mainCpuMs?: number;
}

/** The best rate of the runs, and the least main-thread CPU among them. */
const bestOf = (runs: readonly RateRun[]): RateRun => {
  const cpu = runs.map((one) => one.mainCpuMs).filter((ms): ms is number => ms !== undefined);
  return { rate: Math.max(...runs.map((one) => one.rate)), ...(cpu.length > 0 ? { mainCpuMs: Math.min(...cpu) } : {}) };
};

/**
 * Processing throughput as processing runs it for a large payload (SHA-256 on the worker thread), and beside it, in
 * the same run: the same stream hashing inline (one thread), and the SHA-256 ceiling (openssl's and node's hash on
 * one thread), which bounds any pipeline that must hash one stream, however the cipher is parallelised.
 */
export async function measureThroughput(): Promise<BenchRow[]> {
  const size = `${THROUGHPUT_BYTES / MIB} MiB`;
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
  await decryptRate(ciphertext, seal, 'worker'); // warm-up (and the worker's start)
  // Interleaved, so that other load on the machine falls on both alike; the best of each is kept.
  const runs = { worker: [] as RateRun[], inline: [] as RateRun[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    runs.worker.push(await decryptRate(ciphertext, seal, 'worker'));
    runs.inline.push(await decryptRate(ciphertext, seal, 'inline'));
  }
  const [workerRun, inlineRun] = [bestOf(runs.worker), bestOf(runs.inline)];
  const [worker, inline] = [workerRun.rate, inlineRun.rate];
  const nodeHash = Math.max(...Array.from({ length: ROUNDS }, () => nodeHashRate(ciphertext)));
  const gcm = await opensslRate('aes-256-gcm');
  const sha = await opensslRate('sha256');
  const mibs = (bytesPerSecond: number) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
  const measures = {
    worker: `processing throughput (decrypt + SHA-256 on a worker thread, ${size})`,
    inline: `  the same, SHA-256 inline on one thread (small payloads)`,
    ceiling: `  SHA-256 ceiling on one thread (openssl / node)`,
    cpu: `  main-thread CPU for the ${size} (worker / inline)`,
    share: `  processing / the faster SHA-256 ceiling (how close to the bound)`,
  };
  // What the worker takes off the decrypting thread, whatever else the machine is running (the rates above are not).
  const cpuRow: BenchRow[] =
    workerRun.mainCpuMs === undefined || inlineRun.mainCpuMs === undefined
      ? []
      : [[measures.cpu, `${workerRun.mainCpuMs} ms / ${inlineRun.mainCpuMs} ms = ${(workerRun.mainCpuMs / inlineRun.mainCpuMs).toFixed(2)}`, 'info', '']];
  if (gcm === undefined) {
    return [
      [measures.worker, `${mibs(worker)}; openssl missing or unreadable: ratio skipped`, aim, 'skipped'],
      [measures.inline, mibs(inline), 'info', ''],
      [measures.ceiling, `node ${mibs(nodeHash)}`, 'info', ''],
      ...cpuRow,
    ];
  }
  const ratio = (rate: number) => (rate / gcm).toFixed(2);
  return [
    [measures.worker, `${mibs(worker)} / openssl aes-256-gcm ${mibs(gcm)} = ${ratio(worker)}`, aim, worker / gcm >= 0.5 ? 'ok' : 'UNDER 0.5'],
    [measures.inline, `${mibs(inline)} = ${ratio(inline)}`, 'info', ''],
    [measures.ceiling, `${sha === undefined ? 'openssl ?' : `${mibs(sha)} = ${ratio(sha)}`} / node ${mibs(nodeHash)} = ${ratio(nodeHash)}`, 'info', ''],
    // The checksum is SHA-256 of the plaintext (DESIGN.md §7) and one stream's hash cannot be split: no pipeline can
    // beat one core's SHA-256, so this is the share of the reachable rate, whatever the machine's load.
    [measures.share, (worker / Math.max(nodeHash, sha ?? 0)).toFixed(2), 'info', ''],
    ...cpuRow,
  ];
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

const BATCH_ITEMS = 25; // BatchWriteItem's limit
const PARALLEL_BATCHES = 16;
const TYPES = ['Call', 'SMS', 'Interview', 'Photo', 'Call', 'MMS'] as const;

/** Where the bench's stack keeps its table: the same DynamoDB Local the services query (not a stand-in of it). */
export interface BenchTable {
  endpoint: string;
  region: string;
  tableName: string;
}

/**
 * `count` Processed payloads of `client` over 50 devices and the past year, built by processedPayloadItem (the store's
 * key builders) and written with BatchWriteItem (25 items a request, PARALLEL_BATCHES requests at a time, unprocessed items retried). These are
 * plain puts with no conditions, so the batch API (not in the TableStore port: no service needs it) does in seconds
 * what transactions of 99 did in minutes at 100,000 items. Answers items per second.
 */
async function writePayloads(table: BenchTable, client: string, count: number): Promise<number> {
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: table.endpoint, region: table.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  const now = Date.now();
  const item = (index: number) => {
    const reference = ulid();
    const device = `bench-device-${index % 50}`;
    const time = new Date(now - Math.floor((index / count) * 365 * 86_400_000)).toISOString();
    return processedPayloadItem(client, {
      reference,
      device,
      type: TYPES[index % TYPES.length] as string,
      time,
      allNumbers: `+4477009${String(index % 100_000).padStart(5, '0')}`,
    });
  };
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_BATCHES }, async () => {
      while (next < count) {
        const start = next;
        next += BATCH_ITEMS;
        let requests = Array.from({ length: Math.min(BATCH_ITEMS, count - start) }, (_, offset) => ({ PutRequest: { Item: item(start + offset) } }));
        for (let attempt = 0; requests.length > 0; attempt += 1) {
          if (attempt > 8) throw new Error('BatchWrite left items unprocessed after retries');
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
          const result = await documents.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: requests } }));
          requests = (result.UnprocessedItems?.[table.tableName] ?? []) as typeof requests;
        }
      }
    }),
  );
  documents.destroy();
  return count / ((performance.now() - started) / 1000);
}

/**
 * Median `GET payloads?limit=50` for tenant `small` with 1,000 payloads and `large` with 100,000 (written here), over
 * HTTP against the bench's stack.
 */
export async function measurePayloadPage(
  table: BenchTable,
  apiUrl: string,
  tenants: { small: { client: string; token: string }; large: { client: string; token: string } },
  samples: number,
): Promise<BenchRow> {
  const [smallCount, largeCount] = [1_000, Number(process.env.BENCH_PAYLOADS ?? 100_000)];
  const started = performance.now();
  const [, rate] = await Promise.all([writePayloads(table, tenants.small.client, smallCount), writePayloads(table, tenants.large.client, largeCount)]);
  console.log(
    `Wrote ${smallCount.toLocaleString('en-GB')} payloads (${tenants.small.client}) and ${largeCount.toLocaleString('en-GB')} (${tenants.large.client}) ` +
      `into DynamoDB Local (${table.endpoint}) in ${((performance.now() - started) / 1000).toFixed(1)} s (${rate.toFixed(0)} items/s)`,
  );
  const url = (client: string) => `${apiUrl}/api/v1/${client}/payloads?limit=50`;
  const times = await interleavedMedians(
    { url: url(tenants.small.client), token: tenants.small.token },
    { url: url(tenants.large.client), token: tenants.large.token },
    samples,
  );
  const ratio = times.large / times.small;
  return [
    `GET payloads (page of 50) @ ${largeCount.toLocaleString('en-GB')} vs ${smallCount.toLocaleString('en-GB')}, DynamoDB Local`,
    `${times.large.toFixed(1)} ms / ${times.small.toFixed(1)} ms = ${ratio.toFixed(2)}`,
    'ratio < 1.5',
    ratio < 1.5 ? 'ok' : 'OVER 1.5',
  ];
}
