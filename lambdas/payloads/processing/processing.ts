import type { PayloadState } from '#shared/constants/payloads.ts';
import { META_BY_TYPE } from '#shared/contract/entities/payloads.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import { raiseAlert } from '../../alerts/public.ts';
import { relatedEntity } from '../../alerts/public.ts';
import type { Config } from '../../core/config.ts';
import type { Dependencies } from '../../core/dependencies.ts';
import { recordPayloadMetric } from '../../metrics/public.ts';
import type { ObjectLockOptions } from '../../core/ports/blob-store.ts';
import { ConditionFailedError, type ItemKey, type UpdateSpec } from '../../core/ports/table-store.ts';
import { readDeviceNumbers } from '../../core/store/entities/device.ts';
import { readPayload, threadIndexKeys, type PayloadItem } from '../../core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '../../core/store/keys.ts';
import { passContent } from './content-pass.ts';
import { IV_BYTES, openPayloadDek, openSealedMeta, PayloadCryptoError } from '../../device-crypto/public.ts';
import { isRecordingHeld } from '../../account-data/public.ts';
import { objectRetentionFor } from '../../account-data/public.ts';
import { getRetentionPolicy } from '../../account-data/public.ts';
import { payloadDueMarkerItems } from '../../account-data/public.ts';
import { superviseProcessed } from '../../supervision/public.ts';
import { reconcileProcessed } from '../../completeness/public.ts';
import { isLate } from './registration.ts';
import { forgetSweep } from './sweep-marker.ts';
import { waveformObjectKey, WaveformPeaksSink } from './waveform-peaks.ts';

/** Types whose recording is audio: their waveform peaks are computed in the content pass. */
const AUDIO_TYPES = new Set(['Call', 'Interview']);

/** What processing uses. */
export type ProcessingDependencies = Pick<Dependencies, 'table' | 'keys' | 'clock' | 'blobs' | 'scanner' | 'logger'> & {
  /** The Object Lock mode of new objects (COMPLIANCE when absent). */
  config?: Partial<Pick<Config, 'OBJECT_LOCK_MODE'>>;
};

/** How one run ended (logged and returned by the jobs function). */
export type ProcessingOutcome =
  | 'not-registered'
  | 'not-uploaded'
  | 'scan-pending'
  | 'Processed'
  | 'Failed'
  | 'Quarantined'
  | 'unchanged';

export interface ProcessingOptions {
  /** Tests: runs right after the Scanning state is written (throw here to simulate a crash mid-way). */
  afterScanning?: () => void | Promise<void>;
}

const ACTOR = 'system:payload-processing';
/** Guard on every transition: a redelivered event or a retry never moves a state twice. */
const stateIs = (state: string) =>
  ({ kind: 'expression', expression: '#s = :s', names: { '#s': 'payload_state' }, values: { ':s': state } }) as const;

/**
 * Processes the payload `payloadReference` of `client` after its object landed in the raw bucket (S3 Object Created):
 * Recorded/Uploaded → Scanning → Processed, or Quarantined (scan hit), or Failed (key, meta, tag or checksum).
 *
 * Idempotent by construction: every transition is an update conditional on the state this run read, and the work
 * of Scanning (scan, decrypt, write the processed object) is repeatable, so a redelivered event or a retry after a
 * crash finds the state where the last run left it and goes on from there. Side effects that count (metrics, the
 * alert) are flagged in the same write as the final state (`metrics_pending`, `alert_pending`) and claimed by a
 * conditional REMOVE before they run: they happen at most once, and once unless a crash falls between claim and
 * effect.
 */
export async function processPayload(
  deps: ProcessingDependencies,
  client: string,
  payloadReference: string,
  options: ProcessingOptions = {},
): Promise<ProcessingOutcome> {
  const key = keys.payload.key(client, payloadReference);
  // A bounded loop over the states: each pass does one transition, then re-reads.
  for (let pass = 0; pass < 8; pass += 1) {
    const stored = await deps.table.get(key, { consistent: true });
    if (stored === undefined) return 'not-registered';
    const item = readPayload(stored);
    const state = item.payload_state;
    try {
      if (state === 'Recorded') {
        const object = await deps.blobs.head('raw', payloadObjectKey(client, payloadReference));
        if (object === undefined) return 'not-uploaded';
        const uploadedAt = object.lastModified?.toISOString() ?? deps.clock.now().toISOString();
        await transition(deps, key, { from: state, to: 'Uploaded' }, {
          set: { uploaded_at: uploadedAt, is_late: isLate(item.payload_time ?? '', uploadedAt) },
        });
      } else if (state === 'Uploaded') {
        await transition(deps, key, { from: state, to: 'Scanning' }, {});
        await options.afterScanning?.();
      } else if (state === 'Scanning') {
        const result = await scanAndDecrypt(deps, client, item);
        if (result.outcome === 'scan-pending') return 'scan-pending';
        await transition(deps, key, { from: state, to: result.outcome }, result.update);
      } else {
        const outcome = await settle(deps, client, key, item);
        // Settled, and its effects ran: the sweep (sweep.ts) has nothing left to do for this payload.
        await forgetSweep(deps, client, payloadReference);
        return outcome;
      }
    } catch (error) {
      // Another run moved the state first: re-read and continue from there.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  throw new Error(`Payload ${payloadReference} did not settle`);
}

/** One step of the state machine, conditional on the state read (a concurrent run that moved it first fails it). */
async function transition(
  deps: ProcessingDependencies,
  key: ItemKey,
  { from, to }: { from: PayloadState; to: PayloadState },
  update: UpdateSpec,
): Promise<void> {
  await deps.table.update(
    key,
    { ...update, set: { ...update.set, payload_state: to, updated_at: deps.clock.now().toISOString(), updated_by: ACTOR } },
    { condition: stateIs(from) },
  );
}

type ScanResult =
  | { outcome: 'scan-pending' }
  | { outcome: 'Processed' | 'Failed' | 'Quarantined'; update: UpdateSpec };

const failed = (reason: string): ScanResult => ({
  outcome: 'Failed',
  update: { set: { failure_reason: reason.slice(0, 500), alert_pending: true } },
});

/** The work of Scanning: key and meta, then one pass over the content (scan, checksum, processed object). */
async function scanAndDecrypt(deps: ProcessingDependencies, client: string, item: PayloadItem): Promise<ScanResult> {
  let dek: Buffer;
  let meta: Record<string, unknown>;
  try {
    dek = await openPayloadDek(deps, client, item);
    // A payload without sealed meta fails here like one whose meta does not open (too short to be sealed).
    const parsed = META_BY_TYPE[item.payload_type].safeParse(openSealedMeta(dek, item.sealed_meta ?? ''));
    if (!parsed.success) return failed(formatIssues(parsed.error, 'meta').join('; '));
    // Decrypted meta: free-form by design (open objects; each type's own fields are read below as unknowns).
    meta = parsed.data as Record<string, unknown>;
  } catch (error) {
    if (error instanceof PayloadCryptoError) return failed(error.message);
    throw error;
  }

  // The raw object is ciphertext: the scanner reads the decrypted plaintext, so a hit is on what was recorded.
  const s3Path = payloadObjectKey(client, item.payload_reference);
  const iv = Buffer.from(item.content_iv ?? '', 'base64');
  if (iv.length !== IV_BYTES) return failed(`iv: Must be ${IV_BYTES} bytes`);
  const peaks = AUDIO_TYPES.has(item.payload_type) ? new WaveformPeaksSink() : undefined;
  const content = await passContent(deps, {
    objectKey: s3Path,
    dek,
    iv,
    checksum: item.checksum ?? '',
    lock: await lockWithHolds(deps, client, item),
    ...(peaks === undefined ? {} : { peaks }),
  });
  if (content.outcome === 'scan-pending') return { outcome: 'scan-pending' };
  if (content.outcome === 'failed') return failed(content.reason);
  if (content.outcome === 'infected') {
    return { outcome: 'Quarantined', update: { set: { scan_signature: content.signature.slice(0, 200), alert_pending: true } } };
  }
  // Written before Processed: a payload flagged with peaks always has them (a failed PUT retries the whole pass).
  const waveform = peaks?.result();
  if (waveform !== undefined) {
    await deps.blobs.put('processed', waveformObjectKey(client, item.payload_reference), Buffer.from(JSON.stringify(waveform)), {
      contentType: 'application/json',
    });
  }

  // Supervision reads what was just written (a message's text) or opened (the notes); the recording is not Processed
  // until the review items its policies raise are recorded (an error fails this run, which is retried).
  await superviseProcessed(deps, client, item, meta);
  // Capture completeness: the recording explains its ledger entry, or waits for it (an error fails this run too).
  await reconcileProcessed(deps, client, item, meta);

  const numbers = numbersOf(meta);
  const deviceNumbers = await deviceNumbersOf(deps, client, item);
  const all = [...new Set([...numbers, ...deviceNumbers])];
  const duration = durationOf(meta);
  const processedAt = deps.clock.now().toISOString();
  return {
    outcome: 'Processed',
    update: {
      set: {
        processed_at: processedAt,
        // In the same write as the state: the tenant's Processed recordings by processing time, what transfers read.
        ...keys.payload.processedKeys(client, item.payload_reference, processedAt),
        s3_path: s3Path,
        metrics_pending: true,
        ...(numbers.length > 0 ? { second_party_numbers: numbers.join(',') } : {}),
        ...(all.length > 0 ? { all_numbers: all.join(',') } : {}),
        // With the thread, in the same write, the message's place in its device's thread (what the thread list reads).
        ...(typeof meta.thread_id === 'string' ? { thread_id: meta.thread_id, ...threadIndexKeys(client, { ...item, thread_id: meta.thread_id }) } : {}),
        // Plain attribute so the comments service checks a span without opening the sealed meta.
        ...(duration === undefined ? {} : { payload_duration: duration }),
        ...(waveform === undefined ? {} : { waveform_peaks: true }),
      },
      remove: ['failure_reason'],
    },
  };
}

/** The recording's length in seconds: `payload_duration` (interview, photo, video) or `payload_full_duration` (calls). */
export function durationOf(meta: Record<string, unknown>): number | undefined {
  for (const value of [meta.payload_duration, meta.payload_full_duration]) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/** Second-party numbers of a call or message meta (new and old party forms), in order, without repeats. */
export function numbersOf(meta: Record<string, unknown>): string[] {
  const parties: unknown[] = [
    ...(Array.isArray(meta.second_parties) ? meta.second_parties : []),
    ...(Array.isArray(meta.message_parties) ? meta.message_parties : []),
    ...(meta.second_party !== undefined ? [meta.second_party] : []),
  ];
  const numbers = parties
    .map((party) => (party !== null && typeof party === 'object' ? (party as { phone_number?: unknown }).phone_number : undefined))
    .filter((number): number is string => typeof number === 'string' && number.length > 0);
  return [...new Set(numbers)];
}

/** The recording device's own numbers (kept on the device item by authentication), for all_numbers. */
async function deviceNumbersOf(deps: ProcessingDependencies, client: string, item: PayloadItem): Promise<string[]> {
  const device = await deps.table.get(keys.device.key(client, item.device_reference));
  return device === undefined ? [] : readDeviceNumbers(device).phone_numbers.map((entry) => entry.phone_number);
}

/**
 * Object Lock retention for the processed object (DESIGN.md §8): the tenant's retention policy as it stands (its own,
 * or the defaults) locks the object until its base time plus its type's period, in the configured mode (COMPLIANCE in
 * AWS); lambdas/account-data/object-lock/object-retention.ts says why. A type kept without end: no retention.
 */
async function objectLockFor(deps: ProcessingDependencies, client: string, item: PayloadItem): Promise<ObjectLockOptions | undefined> {
  const policy = await getRetentionPolicy(deps, client);
  return objectRetentionFor(policy, item, deps.config?.OBJECT_LOCK_MODE ?? 'COMPLIANCE', deps.clock.now());
}

/** The retention lock, plus the object's legal hold while an active legal hold covers the recording. */
export async function lockWithHolds(deps: ProcessingDependencies, client: string, item: PayloadItem): Promise<ObjectLockOptions | undefined> {
  const lock = await objectLockFor(deps, client, item);
  return (await isRecordingHeld(deps, client, item)) ? { ...lock, legalHold: true } : lock;
}

/** Claims a pending effect: true for exactly one caller (a conditional REMOVE of the flag). */
async function claim(deps: ProcessingDependencies, key: ItemKey, item: PayloadItem, flag: 'metrics_pending' | 'alert_pending'): Promise<boolean> {
  if (item[flag] !== true) return false;
  try {
    await deps.table.update(
      key,
      { remove: [flag] },
      { condition: { kind: 'expression', expression: '#f = :t', names: { '#f': flag }, values: { ':t': true } } },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** The effects of a final state, each at most once: metrics for Processed, a PayloadAlert for Failed/Quarantined. */
async function settle(deps: ProcessingDependencies, client: string, key: ItemKey, item: PayloadItem): Promise<ProcessingOutcome> {
  const state = item.payload_state;
  const reference = item.payload_reference;
  // Its retention marker by processed_at (lambdas/account-data/retention/due-index.ts), before the one-shot effects:
  // a put of the same marker again changes nothing, so a redelivered event may repeat it.
  if (state === 'Processed') {
    for (const marker of payloadDueMarkerItems(client, { ...item, payload_reference: reference }, ['processed_at'])) await deps.table.put(marker);
  }
  if (state === 'Processed' && (await claim(deps, key, item, 'metrics_pending'))) {
    await recordPayloadMetric(deps, client, {
      device_reference: item.device_reference,
      payload_type: item.payload_type,
      time: item.payload_time ?? '',
      ...(item.group !== undefined && item.group.length > 0 ? { group: item.group } : {}),
    });
    return 'Processed';
  }
  if ((state === 'Failed' || state === 'Quarantined') && (await claim(deps, key, item, 'alert_pending'))) {
    const why = state === 'Quarantined' ? `malware scan hit (${item.scan_signature ?? 'unknown'})` : (item.failure_reason ?? 'unknown');
    await raiseAlert(deps, client, {
      scope: 'ops',
      type: 'PayloadAlert',
      subject: `Payload ${state}`,
      key: reference,
      keyType: 'Scoped',
      message: `Payload ${reference} (${item.payload_type}) of device ${item.device_reference}: ${why}`,
      severity: 'High',
      relatedEntities: [relatedEntity(client, 'Payload', reference), relatedEntity(client, 'Device', item.device_reference)],
    });
    deps.logger.warn('payload not processed', { client, payload_reference: reference, state });
    return state;
  }
  return 'unchanged';
}
