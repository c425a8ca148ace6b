import { ConditionFailedError, type ItemKey, type TableItem, type TransactOperation } from '../../core/ports/table-store.ts';
import { dueMarkerItems, dueMarkerPuts } from '../../account-data/public.ts';
import { readDevice, type DeviceItem } from '../../core/store/entities/device.ts';
import { readDeviceUser } from '../../core/store/entities/device-user.ts';
import { payloadToItem, readPayload, type PayloadItem } from '../../core/store/entities/payload.ts';
import { keys } from '../../core/store/keys.ts';
import { durationOf, numbersOf } from '../../payloads/public.ts';
import { isLate } from '../../payloads/public.ts';
import type { RecordingRow } from '../format/index.ts';
import { results, type ImportContext } from './context.ts';
import { legacyPayloadReference, openStoredMeta, sealNewMeta, storeMedia } from './recording-store.ts';
import type { RowResult } from './results.ts';

const CALL_TYPES = new Set(['Call', 'AbortedCall', 'BlockedCall']);

/** A conference call: a call with a `CC` party (the legacy platform exported one row per leg, under one reference). */
function isConference(row: Pick<RecordingRow, 'payload_type' | 'meta'>): boolean {
  const parties = row.meta.second_parties;
  return CALL_TYPES.has(row.payload_type) && Array.isArray(parties) && parties.some((party) => (party as { direction?: unknown } | null)?.direction === 'CC');
}

export type Holder = { device: DeviceItem; userReference: string; group: string | undefined };

/** How a recording row reads an item: one GetItem each on its own, or from what its batch read (./recording-batch.ts). */
export type ReadItem = (key: ItemKey) => Promise<TableItem | undefined>;

/**
 * What a recording row comes to once what it names is read, before anything is written:
 * - `done`: its result, with nothing to write (a reference to nothing, a switch, no media…);
 * - `loaded`: Verity holds it already (importLoaded decides against the loaded item);
 * - `create`: a new recording, to be stored with its media (when it has some) and put with its due markers.
 */
export type RecordingPlan =
  | { kind: 'done'; result: RowResult }
  | { kind: 'loaded'; existing: PayloadItem; holder: Holder }
  | { kind: 'create'; item: PayloadItem; media?: Buffer };

/** The keys a recording row reads first (its device and its payload; its user follows from them). */
export function recordingKeys(client: string, row: RecordingRow): ItemKey[] {
  return [keys.device.key(client, row.device_reference), keys.payload.key(client, legacyPayloadReference(client, row.legacy_payload_reference))];
}

/** The device user a recording row is attributed to: the row's, else its device's holder (undefined when neither). */
export function recordingUserOf(row: RecordingRow, device: TableItem | undefined): string | undefined {
  return row.device_user_reference ?? (device === undefined ? undefined : readDevice(device).device_user_reference);
}

/** Judges a recording row against what `read` answers (docs/migration-format.md, "What each row does"). */
export async function planRecording(context: ImportContext, row: RecordingRow, read: ReadItem): Promise<RecordingPlan> {
  const { client } = context;
  const reference = row.legacy_payload_reference;
  const payloadReference = legacyPayloadReference(client, reference);
  const done = (result: RowResult): RecordingPlan => ({ kind: 'done', result });
  const [storedDevice, stored] = await Promise.all([read(keys.device.key(client, row.device_reference)), read(keys.payload.key(client, payloadReference))]);
  if (storedDevice === undefined) {
    return done(results.error(context, { entity: 'Payload', type: 'Error', reference }, `device_reference: No device ${row.device_reference} (on an earlier row or on Verity)`));
  }
  const device = readDevice(storedDevice);
  const userReference = recordingUserOf(row, storedDevice);
  if (userReference === undefined) {
    return done(results.error(context, { entity: 'Payload', type: 'PayloadWithNoMatchingUser', reference }, `Neither the row nor its device ${device.device_reference} names a device user`));
  }
  const user = await read(keys.deviceUser.key(client, userReference));
  if (user === undefined) {
    return done(results.error(context, { entity: 'Payload', type: 'PayloadWithNoMatchingUser', reference }, `device_user_reference: No device user ${userReference} (on an earlier row or on Verity)`));
  }
  const holder: Holder = { device, userReference, group: readDeviceUser(user).group ?? device.group };

  if (stored !== undefined) {
    const existing = readPayload(stored);
    if (existing.legacy_payload_reference !== reference) {
      await context.metrics.add(existing);
      return done(results.error(context, { entity: 'Payload', type: 'Error', reference }, `payload ${payloadReference} is not this legacy recording`));
    }
    return { kind: 'loaded', existing, holder };
  }
  if (context.settings.disable_payloads) {
    return done(results.warning(context, { entity: 'Payload', type: 'IgnoreNewPayloadMigrationDisabled', reference }, 'Payload migration is disabled: this new recording is not loaded'));
  }
  if (row.legacy_state === 'Processed' && row.media === undefined) {
    return done(results.error(context, { entity: 'Payload', type: 'PayloadDataNotAvailable', reference }, 'Processed on the legacy platform, but the export carries no media for it'));
  }
  const item = await newItem(context, row, payloadReference, holder);
  return row.media === undefined ? { kind: 'create', item } : { kind: 'create', item, media: row.media.bytes };
}

/** The result of a recording created as planned. */
export function createdResult(context: ImportContext, row: RecordingRow, item: PayloadItem): RowResult {
  const type = item.payload_state === 'Processed' ? 'PayloadCreated' : 'RecordedPayloadCreated';
  return results.success(context, { entity: 'Payload', type: type, reference: row.legacy_payload_reference }, true, `payload ${item.payload_reference}`);
}

/** A loaded recording: its pending count finished (a crash before its batch), then completed, updated or left. */
export async function importLoadedRecording(context: ImportContext, row: RecordingRow, existing: PayloadItem, holder: Holder): Promise<RowResult> {
  await context.metrics.add(existing);
  return importLoaded(context, row, existing, holder);
}

/**
 * A recording row on its own (docs/migration-format.md, "What each row does"): created Processed with its media or
 * Recorded without, completed or updated when loaded before, never written twice. The reference a result names is the
 * legacy one (what the firm knows); Verity's payload reference is derived from it. A batch of rows goes through
 * ./recording-batch.ts instead, with the same plan.
 */
export async function importRecording(context: ImportContext, row: RecordingRow): Promise<RowResult> {
  const plan = await planRecording(context, row, (key) => context.deps.table.get(key, { consistent: true }));
  if (plan.kind === 'done') return plan.result;
  if (plan.kind === 'loaded') return importLoadedRecording(context, row, plan.existing, plan.holder);
  if (plan.media === undefined) {
    if (!(await putNew(context, plan.item))) return importRecording(context, row);
    return createdResult(context, row, plan.item);
  }
  const media = await storeMedia(context, plan.item, plan.media);
  if (media.outcome === 'refused') return results.error(context, { entity: 'Payload', type: 'Error', reference: row.legacy_payload_reference }, media.message);
  const processed = withMedia(context, plan.item, media);
  if (!(await putNew(context, processed))) return importRecording(context, row);
  await context.metrics.add(processed);
  return createdResult(context, row, processed);
}

/** A new recording with its stored media: Processed, its count pending (metrics-batch.ts). */
export function withMedia(context: ImportContext, item: PayloadItem, media: { s3Path: string; waveform: boolean }): PayloadItem {
  return { ...item, ...processedFields(context, media), metrics_pending: true };
}

/** A recording loaded before: completed, updated, or left as it is. */
async function importLoaded(context: ImportContext, row: RecordingRow, existing: PayloadItem, holder: Holder): Promise<RowResult> {
  const reference = row.legacy_payload_reference;
  const conference = isConference(row);
  if (existing.payload_state === 'Recorded') {
    if (row.legacy_state === 'Processed') {
      if (row.media === undefined) return results.error(context, { entity: 'Payload', type: 'PayloadDataNotAvailable', reference }, 'Processed on the legacy platform, but the export carries no media for it');
      const updated: PayloadItem = { ...existing, ...(await fromRow(context, row, holder)), checksum: row.checksum };
      const media = await storeMedia(context, updated, row.media.bytes);
      if (media.outcome === 'refused') return results.error(context, { entity: 'Payload', type: 'Error', reference }, media.message);
      const processed = { ...updated, ...processedFields(context, media), metrics_pending: true };
      await replace(context, existing, processed);
      await context.metrics.add(processed);
      return results.success(context, { entity: 'Payload', type: 'PayloadUpdated', reference }, true, 'Its media is loaded now');
    }
    return updateMeta(context, row, { existing, holder }, row.meta);
  }
  // Loaded with its media (Processed, or moved on since): a row without media adds nothing.
  if (row.legacy_state === 'Recorded') {
    return results.success(context, { entity: 'Payload', type: 'NoChangeToPayload', reference }, false, 'Verity holds this recording with its media: the row adds nothing');
  }
  // Disposed of (Deleted, Destroyed) or otherwise moved on since: what Verity did to it stands.
  if (existing.payload_state !== 'Processed') {
    return results.warning(context, { entity: 'Payload', type: 'PayloadAlreadyLoaded', reference }, `Loaded before, now ${existing.payload_state} on Verity: left as it is`);
  }
  if (conference) {
    const mismatch = [
      existing.checksum !== row.checksum ? 'media (checksum)' : undefined,
      existing.payload_time !== row.payload_time ? 'payload_time' : undefined,
      existing.device_reference !== row.device_reference ? 'device_reference' : undefined,
    ].filter((field): field is string => field !== undefined);
    if (mismatch.length > 0) {
      return results.error(context, { entity: 'Payload', type: 'ConferenceCallWithMismatchingData', reference }, `This leg differs from the call loaded under the same reference: ${mismatch.join(', ')}`);
    }
    const loadedMeta = (await openStoredMeta(context, existing)) ?? {};
    return updateMeta(context, row, { existing, holder }, { ...row.meta, second_parties: mergedParties(loadedMeta.second_parties, row.meta.second_parties) });
  }
  if (existing.checksum !== row.checksum) {
    return results.warning(context, { entity: 'Payload', type: 'PayloadAlreadyLoaded', reference }, `Loaded before with other media (checksum ${existing.checksum ?? 'none'}): the loaded recording is kept`);
  }
  return updateMeta(context, row, { existing, holder }, row.meta);
}

/** Parties of two legs, each number once (the loaded order first). */
function mergedParties(loaded: unknown, leg: unknown): unknown[] {
  const all = [...(Array.isArray(loaded) ? loaded : []), ...(Array.isArray(leg) ? leg : [])];
  const seen = new Set<string>();
  return all.filter((party) => {
    const key = JSON.stringify((party as { phone_number?: unknown } | null)?.phone_number ?? party);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The meta (and the fields copied out of it) brought to `meta`: PayloadAlreadyLoaded when nothing differs. */
async function updateMeta(context: ImportContext, row: RecordingRow, loaded: { existing: PayloadItem; holder: Holder }, meta: Record<string, unknown>): Promise<RowResult> {
  const { existing, holder } = loaded;
  const reference = row.legacy_payload_reference;
  const loadedMeta = await openStoredMeta(context, existing);
  const times = (item: Pick<PayloadItem, 'uploaded_at' | 'legacy_processed_time'>) => JSON.stringify([item.uploaded_at, item.legacy_processed_time]);
  if (loadedMeta !== undefined && JSON.stringify(loadedMeta) === JSON.stringify(meta) && times(existing) === times(row)) {
    return results.warning(context, { entity: 'Payload', type: 'PayloadAlreadyLoaded', reference }, 'Loaded before, as this row has it');
  }
  const updated: PayloadItem = { ...existing, ...(await fromRow(context, { ...row, meta }, holder)) };
  // A recording's own fields the row does not set keep what was loaded (its state, media, processing times).
  await replace(context, existing, updated);
  return results.success(context, { entity: 'Payload', type: 'PayloadUpdated', reference }, true, 'Its details are updated from the legacy platform');
}

/** What a row decides on a payload item (everything but its state, media and processing fields). */
async function fromRow(context: ImportContext, row: RecordingRow, holder: Holder): Promise<Partial<PayloadItem>> {
  const numbers = numbersOf(row.meta);
  const own = [...holder.device.phone_numbers.map((entry) => entry.phone_number), ...(holder.device.legacy_phone_number === undefined ? [] : [holder.device.legacy_phone_number])];
  const all = [...new Set([...numbers, ...own])];
  const duration = durationOf(row.meta);
  return {
    ...(await sealNewMeta(context, row.meta)),
    payload_time: row.payload_time,
    is_late: row.uploaded_at === undefined ? false : isLate(row.payload_time, row.uploaded_at),
    ...(row.uploaded_at === undefined ? {} : { uploaded_at: row.uploaded_at }),
    ...(row.legacy_processed_time === undefined ? {} : { legacy_processed_time: row.legacy_processed_time }),
    ...(numbers.length > 0 ? { second_party_numbers: numbers.join(',') } : {}),
    ...(all.length > 0 ? { all_numbers: all.join(',') } : {}),
    ...(typeof row.meta.thread_id === 'string' ? { thread_id: row.meta.thread_id } : {}),
    ...(duration === undefined ? {} : { payload_duration: duration }),
    updated_at: context.now,
    updated_by: context.actor,
  };
}

async function newItem(context: ImportContext, row: RecordingRow, payloadReference: string, holder: Holder): Promise<PayloadItem> {
  return {
    client: context.client,
    payload_reference: payloadReference,
    payload_type: row.payload_type,
    payload_state: 'Recorded',
    device_reference: holder.device.device_reference,
    device_user_reference: holder.userReference,
    ...(holder.group === undefined ? {} : { group: holder.group }),
    is_legacy: true,
    legacy_payload_reference: row.legacy_payload_reference,
    ...(row.checksum === undefined ? {} : { checksum: row.checksum }),
    created_at: context.now,
    ...(await fromRow(context, row, holder)),
  };
}

function processedFields(context: ImportContext, media: { s3Path: string; waveform: boolean }): Partial<PayloadItem> {
  return { payload_state: 'Processed', processed_at: context.now, s3_path: media.s3Path, ...(media.waveform ? { waveform_peaks: true } : {}) };
}

/**
 * A new recording's writes: its item, on the condition that none is there yet, and its retention due markers from its
 * original times (a migrated recording is disposed of by the same policy, counted from when it was recorded), to go in
 * one transaction, so a recording is never stored without its markers.
 */
export function newRecordingOperations(context: ImportContext, item: PayloadItem): TransactOperation[] {
  const stored = payloadToItem(context.client, { ...item, payload_time: item.payload_time ?? context.now });
  return [{ kind: 'put', item: stored, condition: { kind: 'item-not-exists' } }, ...dueMarkerPuts(context.client, stored)];
}

/** Puts a new recording with its markers; false when one appeared meanwhile (the row is then judged again against it). */
async function putNew(context: ImportContext, item: PayloadItem): Promise<boolean> {
  try {
    await context.deps.table.transactWrite(newRecordingOperations(context, item));
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
  return true;
}

/**
 * An updated recording's retention due markers, from its original times, put after its update (a marker missed by a
 * crash only keeps the recording longer, and the retention backfill puts it back).
 */
async function putDueMarkers(context: ImportContext, stored: TableItem): Promise<void> {
  for (const marker of dueMarkerItems(context.client, stored)) await context.deps.table.put(marker);
}

/**
 * Brings a loaded recording to its update, conditional on it being as read (a change meanwhile throws
 * ConditionFailedError and the importer reads the row again). An UpdateItem of the attributes the import decides, so
 * what other parts of Verity keep on the item stays; its list keys follow its time, device and user.
 */
async function replace(context: ImportContext, existing: PayloadItem, updated: PayloadItem): Promise<void> {
  // The count flag belongs to the metrics batch (metrics-batch.ts): set only when the recording becomes Processed here,
  // never copied from the item as read (a claim since would be undone) nor removed (a pending count would be lost).
  const { metrics_pending: _flag, ...rest } = updated;
  void _flag;
  const becomesProcessed = existing.payload_state !== 'Processed' && updated.payload_state === 'Processed';
  const { pk, sk, ...attributes } = payloadToItem(context.client, {
    ...rest,
    payload_time: updated.payload_time ?? context.now,
    ...(becomesProcessed ? { metrics_pending: true } : {}),
  });
  const remove = Object.keys(existing).filter((attribute) => attribute !== 'metrics_pending' && !(attribute in attributes));
  await context.deps.table.update(
    { pk, sk },
    { set: attributes, ...(remove.length > 0 ? { remove } : {}) },
    { condition: { kind: 'expression', expression: '#pat = :pat', names: { '#pat': 'updated_at' }, values: { ':pat': existing.updated_at ?? '' } } },
  );
  await putDueMarkers(context, { pk, sk, ...attributes });
}
