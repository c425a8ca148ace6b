import { ConditionFailedError, type TableItem } from '../../core/ports/table-store.ts';
import { dueMarkerItems } from '../../account-data/retention/due-index.ts';
import { readDevice, type DeviceItem } from '../../core/store/entities/device.ts';
import { readDeviceUser } from '../../core/store/entities/device-user.ts';
import { payloadToItem, readPayload, type PayloadItem } from '../../core/store/entities/payload.ts';
import { keys } from '../../core/store/keys.ts';
import { durationOf, numbersOf } from '../../payloads/processing/processing.ts';
import { isLate } from '../../payloads/processing/registration.ts';
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

type Holder = { device: DeviceItem; userReference: string; group: string | undefined };

/**
 * A recording row (docs/migration-format.md, "What each row does"): created Processed with its media or Recorded
 * without, completed or updated when loaded before, never written twice. The reference a result names is the legacy
 * one (what the firm knows); Verity's payload reference is derived from it.
 */
export async function importRecording(context: ImportContext, row: RecordingRow): Promise<RowResult> {
  const { deps, client } = context;
  const reference = row.legacy_payload_reference;
  const payloadReference = legacyPayloadReference(client, reference);
  const [storedDevice, stored] = await Promise.all([
    deps.table.get(keys.device.key(client, row.device_reference), { consistent: true }),
    deps.table.get(keys.payload.key(client, payloadReference), { consistent: true }),
  ]);
  if (storedDevice === undefined) {
    return results.error(context, 'Payload', 'Error', reference, `device_reference: No device ${row.device_reference} (on an earlier row or on Verity)`);
  }
  const device = readDevice(storedDevice);
  const userReference = row.device_user_reference ?? device.device_user_reference;
  if (userReference === undefined) {
    return results.error(context, 'Payload', 'PayloadWithNoMatchingUser', reference, `Neither the row nor its device ${device.device_reference} names a device user`);
  }
  const user = await deps.table.get(keys.deviceUser.key(client, userReference), { consistent: true });
  if (user === undefined) {
    return results.error(context, 'Payload', 'PayloadWithNoMatchingUser', reference, `device_user_reference: No device user ${userReference} (on an earlier row or on Verity)`);
  }
  const holder: Holder = { device, userReference, group: readDeviceUser(user).group ?? device.group };

  if (stored !== undefined) {
    const existing = readPayload(stored);
    await context.metrics.add(existing);
    if (existing.legacy_payload_reference !== reference) {
      return results.error(context, 'Payload', 'Error', reference, `payload ${payloadReference} is not this legacy recording`);
    }
    return importLoaded(context, row, existing, holder);
  }

  if (context.settings.disable_payloads) {
    return results.warning(context, 'Payload', 'IgnoreNewPayloadMigrationDisabled', reference, 'Payload migration is disabled: this new recording is not loaded');
  }
  if (row.legacy_state === 'Processed' && row.media === undefined) {
    return results.error(context, 'Payload', 'PayloadDataNotAvailable', reference, 'Processed on the legacy platform, but the export carries no media for it');
  }
  const item = await newItem(context, row, payloadReference, holder);
  if (row.media === undefined) {
    if (!(await putNew(context, item))) return importRecording(context, row);
    return results.success(context, 'Payload', 'RecordedPayloadCreated', reference, true, `payload ${payloadReference}`);
  }
  const media = await storeMedia(context, item, row.media.bytes);
  if (media.outcome === 'refused') return results.error(context, 'Payload', 'Error', reference, media.message);
  const processed: PayloadItem = { ...item, ...processedFields(context, media), metrics_pending: true };
  if (!(await putNew(context, processed))) return importRecording(context, row);
  await context.metrics.add(processed);
  return results.success(context, 'Payload', 'PayloadCreated', reference, true, `payload ${payloadReference}`);
}

/** A recording loaded before: completed, updated, or left as it is. */
async function importLoaded(context: ImportContext, row: RecordingRow, existing: PayloadItem, holder: Holder): Promise<RowResult> {
  const reference = row.legacy_payload_reference;
  const conference = isConference(row);
  if (existing.payload_state === 'Recorded') {
    if (row.legacy_state === 'Processed') {
      if (row.media === undefined) return results.error(context, 'Payload', 'PayloadDataNotAvailable', reference, 'Processed on the legacy platform, but the export carries no media for it');
      const updated: PayloadItem = { ...existing, ...(await fromRow(context, row, holder)), checksum: row.checksum };
      const media = await storeMedia(context, updated, row.media.bytes);
      if (media.outcome === 'refused') return results.error(context, 'Payload', 'Error', reference, media.message);
      const processed = { ...updated, ...processedFields(context, media), metrics_pending: true };
      await replace(context, existing, processed);
      await context.metrics.add(processed);
      return results.success(context, 'Payload', 'PayloadUpdated', reference, true, 'Its media is loaded now');
    }
    return updateMeta(context, row, existing, holder, row.meta);
  }
  // Loaded with its media (Processed, or moved on since): a row without media adds nothing.
  if (row.legacy_state === 'Recorded') {
    return results.success(context, 'Payload', 'NoChangeToPayload', reference, false, 'Verity holds this recording with its media: the row adds nothing');
  }
  // Disposed of (Deleted, Destroyed) or otherwise moved on since: what Verity did to it stands.
  if (existing.payload_state !== 'Processed') {
    return results.warning(context, 'Payload', 'PayloadAlreadyLoaded', reference, `Loaded before, now ${existing.payload_state} on Verity: left as it is`);
  }
  if (conference) {
    const mismatch = [
      existing.checksum !== row.checksum ? 'media (checksum)' : undefined,
      existing.payload_time !== row.payload_time ? 'payload_time' : undefined,
      existing.device_reference !== row.device_reference ? 'device_reference' : undefined,
    ].filter((field): field is string => field !== undefined);
    if (mismatch.length > 0) {
      return results.error(context, 'Payload', 'ConferenceCallWithMismatchingData', reference, `This leg differs from the call loaded under the same reference: ${mismatch.join(', ')}`);
    }
    const loadedMeta = (await openStoredMeta(context, existing)) ?? {};
    return updateMeta(context, row, existing, holder, { ...row.meta, second_parties: mergedParties(loadedMeta.second_parties, row.meta.second_parties) });
  }
  if (existing.checksum !== row.checksum) {
    return results.warning(context, 'Payload', 'PayloadAlreadyLoaded', reference, `Loaded before with other media (checksum ${existing.checksum ?? 'none'}): the loaded recording is kept`);
  }
  return updateMeta(context, row, existing, holder, row.meta);
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
async function updateMeta(context: ImportContext, row: RecordingRow, existing: PayloadItem, holder: Holder, meta: Record<string, unknown>): Promise<RowResult> {
  const reference = row.legacy_payload_reference;
  const loadedMeta = await openStoredMeta(context, existing);
  const times = (item: Pick<PayloadItem, 'uploaded_at' | 'legacy_processed_time'>) => JSON.stringify([item.uploaded_at, item.legacy_processed_time]);
  if (loadedMeta !== undefined && JSON.stringify(loadedMeta) === JSON.stringify(meta) && times(existing) === times(row)) {
    return results.warning(context, 'Payload', 'PayloadAlreadyLoaded', reference, 'Loaded before, as this row has it');
  }
  const updated: PayloadItem = { ...existing, ...(await fromRow(context, { ...row, meta }, holder)) };
  // A recording's own fields the row does not set keep what was loaded (its state, media, processing times).
  await replace(context, existing, updated);
  return results.success(context, 'Payload', 'PayloadUpdated', reference, true, 'Its details are updated from the legacy platform');
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

/** Puts a new recording; false when one appeared meanwhile (the row is then judged again against it). */
async function putNew(context: ImportContext, item: PayloadItem): Promise<boolean> {
  const stored = payloadToItem(context.client, { ...item, payload_time: item.payload_time ?? context.now });
  try {
    await context.deps.table.put(stored, { condition: { kind: 'item-not-exists' } });
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
  await putDueMarkers(context, stored);
  return true;
}

/**
 * The recording's retention due markers, from its original times: a migrated recording is disposed of by the same
 * policy, counted from when it was recorded. Put after the recording (a marker missed by a crash only keeps the
 * recording longer, and the retention backfill puts it back).
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
