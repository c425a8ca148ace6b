import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { deviceKeysOf } from '../../device-crypto/public.ts';
import { wrapDek } from '../../device-crypto/public.ts';
import { DEK_BYTES, openPayloadMeta, sealPayloadMeta } from '../../device-crypto/public.ts';
import type { PayloadItem } from '../../core/store/entities/payload.ts';
import { payloadObjectKey } from '../../core/store/keys.ts';
import { lockWithHolds } from '../../payloads/public.ts';
import { waveformObjectKey, WaveformPeaksSink } from '../../payloads/public.ts';
import type { ImportContext } from './context.ts';
import { inParallel } from '../../core/in-parallel.ts';

/**
 * How a migrated recording is kept: as a processed device recording is (lambdas/payloads/processing/), without the
 * raw object a device would have uploaded. A fresh DEK wrapped with the tenant's device KEK seals the meta (so
 * `GET payloads/{ref}` opens it as any other), and the media goes to the processed bucket after a clean scan.
 */

/** The name-based reference of a legacy recording in a tenant: a UUID (version 8) from SHA-256 of both. */
export function legacyPayloadReference(client: string, legacyReference: string): string {
  const hash = createHash('sha256').update(`verity-legacy-payload\u0000${client}\u0000${legacyReference}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x80;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The sealed fields of a recording's item: a fresh DEK, wrapped, and the meta sealed under it. A migrated recording
 * has no raw object, so its DEK seals only the meta: a changed meta is sealed afresh the same way.
 */
export async function sealNewMeta(context: ImportContext, meta: Record<string, unknown>): Promise<Pick<PayloadItem, 'key_id' | 'encrypted_dek' | 'sealed_meta'>> {
  const { kekId, kek } = await deviceKeysOf(context.deps, context.client);
  const dek = randomBytes(DEK_BYTES);
  return { key_id: kekId, encrypted_dek: wrapDek(kek, context.client, kekId, dek).toString('base64'), sealed_meta: sealPayloadMeta(dek, meta) };
}

/** The meta of a stored recording, opened; undefined when it has none that opens. */
export async function openStoredMeta(context: ImportContext, item: PayloadItem): Promise<Record<string, unknown> | undefined> {
  try {
    const meta = await openPayloadMeta(context.deps, context.client, item);
    return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** GuardDuty answers asynchronously: how long a row waits for its verdict before it is reported as not scanned. */
const SCAN_WAITS_MS = [500, 1000, 2000, 4000, 8000];
/** Scans asked for at once (each a small S3 call in AWS, a pass over the bytes locally). */
const SCAN_CONCURRENCY = 16;
/** Recordings whose media is written at once (three S3 calls each at most: peaks, the object, and their reads). */
export const STORE_CONCURRENCY = 8;

export type StoredMedia = { outcome: 'stored'; s3Path: string; waveform: boolean } | { outcome: 'refused'; message: string };
export type MediaToStore = { item: PayloadItem; bytes: Buffer };


/**
 * Scans the media of recordings through the MalwareScanner port: every one asked first, then those still pending asked
 * again after each wait, so a batch waits for GuardDuty's asynchronous verdicts together rather than one row after
 * another. Answers, per entry, why it is refused (a hit, or a scan that did not finish), or undefined when clean.
 */
export async function scanMedia(context: ImportContext, entries: readonly MediaToStore[], options: { scanWaitsMs?: readonly number[] } = {}): Promise<Array<string | undefined>> {
  const subjects = entries.map(({ item, bytes }) => ({
    bucket: 'raw' as const,
    key: payloadObjectKey(context.client, item.payload_reference),
    // The quarantine copy is named by what is scanned: the same media is never scanned twice.
    revision: `legacy-${item.checksum ?? ''}`,
    contentLength: bytes.length,
    body: () => Promise.resolve(Readable.from([bytes])),
  }));
  const verdicts = await inParallel(subjects, SCAN_CONCURRENCY, (subject) => context.deps.scanner.inspect(subject));
  for (const wait of options.scanWaitsMs ?? SCAN_WAITS_MS) {
    const pending = verdicts.flatMap((verdict, index) => (verdict.verdict === 'pending' ? [index] : []));
    if (pending.length === 0) break;
    await sleep(wait);
    const again = await inParallel(pending, SCAN_CONCURRENCY, (index) => context.deps.scanner.inspect(subjects[index] as (typeof subjects)[number]));
    pending.forEach((index, at) => (verdicts[index] = again[at] as (typeof verdicts)[number]));
  }
  return verdicts.map((verdict) => {
    if (verdict.verdict === 'infected') return `The malware scan found ${verdict.signature.slice(0, 200)}: nothing of this recording is stored`;
    if (verdict.verdict === 'pending') return 'The malware scan did not finish in time: nothing is stored; import the file again to finish it';
    return undefined;
  });
}

/**
 * Writes scanned media to the processed bucket at the payload's object key with the retention lock and legal hold
 * processing would give it, plus waveform peaks for audio.
 */
export async function keepMedia(context: ImportContext, item: PayloadItem, bytes: Buffer): Promise<{ s3Path: string; waveform: boolean }> {
  const { deps, client } = context;
  const s3Path = payloadObjectKey(client, item.payload_reference);
  // The peaks and the lock are independent: both at once, then the media itself.
  const [waveform, lock] = await Promise.all([storePeaks(context, item, bytes), lockWithHolds(deps, client, item)]);
  try {
    await deps.blobs.put('processed', s3Path, bytes, {
      contentLength: bytes.length,
      contentType: 'application/octet-stream',
      metadata: { checksum: item.checksum ?? '' },
      ...(lock === undefined ? {} : { lock }),
    });
  } catch (error) {
    // An earlier attempt stored and locked these very bytes (an import killed before the recording's item was
    // written, or a batch's row judged again): S3 adds a version beside the locked one, the local stand-in keeps one
    // version per key and refuses. What is there under the same checksum is what this put would store.
    const there = await deps.blobs.head('processed', s3Path);
    if (item.checksum === undefined || there?.metadata.checksum !== item.checksum) throw error;
  }
  return { s3Path, waveform };
}

/** Scans the media of one recording and, when clean, keeps it (keepMedia). A hit or a scan that does not finish writes nothing. */
export async function storeMedia(context: ImportContext, item: PayloadItem, bytes: Buffer, options: { scanWaitsMs?: readonly number[] } = {}): Promise<StoredMedia> {
  const [refused] = await scanMedia(context, [{ item, bytes }], options);
  if (refused !== undefined) return { outcome: 'refused', message: refused };
  return { outcome: 'stored', ...(await keepMedia(context, item, bytes)) };
}

/** Waveform peaks of a call or interview in PCM WAV, beside the media as processing writes them; false for others. */
async function storePeaks(context: ImportContext, item: PayloadItem, bytes: Buffer): Promise<boolean> {
  if (item.payload_type !== 'Call' && item.payload_type !== 'Interview') return false;
  const peaks = new WaveformPeaksSink();
  peaks.expectBytes(bytes.length);
  peaks.push(bytes);
  const result = peaks.result();
  if (result === undefined) return false;
  await context.deps.blobs.put('processed', waveformObjectKey(context.client, item.payload_reference), Buffer.from(JSON.stringify(result)), { contentType: 'application/json' });
  return true;
}
