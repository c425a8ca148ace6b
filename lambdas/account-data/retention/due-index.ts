import type { ItemKey, TableItem, TransactOperation } from '#core/ports/table-store.ts';
import { keys, type DueStage } from '#core/store/keys.ts';
import { readRetainedItem, type RetainedItem } from '#core/store/entities/retained-item.ts';
import { ledgerEntryReference } from '#core/store/entities/ledger-entry.ts';
import { retentionDueToItem, type RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { RETENTION_TIMESTAMP_TYPES, type RetentionRecordType } from '#shared/constants/account.ts';
import { approvalEnded } from './record-changes/approval.ts';
import { erasureRequestEnded } from './record-changes/erasure-request.ts';
import { caseEnded } from './record-changes/case.ts';
import { deviceUserEnded } from './record-changes/device-user.ts';
import { migrationEnded } from './record-changes/migration.ts';
import { supportAccessEnded } from './record-changes/support-access.ts';
import { transferEnded } from './record-changes/transfer.ts';
import { supervisionItemEnded } from './record-changes/supervision-item.ts';

/**
 * The retention due index (docs/data-model.md "Retention due index"). Every retained record gets a small marker per
 * timestamp kind it has, on a gsi1 partition per tenant, record type (and payload type), kind and stage, sorted by
 * that time. What is due under any policy is then one key range per partition: base time ≤ now − days. A policy
 * change moves no marker; only the record's own disposal (or restore) moves its markers from stage to stage.
 *
 * This module knows which stored entities are retained records and where their times are; the writers call
 * `dueMarkerItems` beside the record's own write, and the retention job's backfill calls it over existing lists.
 */

/** The kind of time records other than payloads count from: their own time (fix, log line, alert, call). */
export const RECORD_TIME = 'at';

/** A retained record as the due index sees it. */
export interface RetainedRecord {
  recordType: RetentionRecordType;
  payloadType?: string | undefined;
  reference: string;
  key: ItemKey;
  /** The times the policy may count from, by kind (only those the record has). */
  bases: Record<string, string>;
}

/** ISO-8601 UTC of a stored time, or undefined when it is missing or not a time. */
function isoOf(value: string | undefined): string | undefined {
  if (value === undefined || value.length === 0) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function only(kind: string, value: string | undefined): Record<string, string> {
  const iso = isoOf(value);
  return iso === undefined ? {} : { [kind]: iso };
}

/** A payload's record: every retention timestamp it has is a time the policy may count from. */
function payloadRecord(payload: PayloadTimes): Omit<RetainedRecord, 'key'> {
  return {
    recordType: 'PayloadData',
    payloadType: payload.payload_type,
    reference: payload.payload_reference,
    bases: Object.assign({}, ...RETENTION_TIMESTAMP_TYPES.map((kind) => only(kind, payload[kind]))) as Record<string, string>,
  };
}

/** Per entity: the record type, its reference and its times; undefined for a record that has not ended yet. */
function describe(record: RetainedItem): Omit<RetainedRecord, 'key'> | undefined {
  switch (record.entity) {
    case 'Payload':
      return payloadRecord(record);
    case 'Gps':
      return { recordType: 'GpsData', reference: record.gps_reference, bases: only(RECORD_TIME, record.timestamp) };
    case 'DeviceLog':
      return { recordType: 'DeviceData', reference: record.log_id, bases: only(RECORD_TIME, record.log_datetime) };
    // An alert counts from its last occurrence; the job moves the marker on when the alert occurred again since.
    case 'Alert':
      return { recordType: 'AlertData', reference: record.alert_reference, bases: only(RECORD_TIME, record.last_occurrence ?? record.first_occurrence) };
    case 'UserActivity':
      return { recordType: 'UserActivityData', reference: record.log_id, bases: only(RECORD_TIME, record.activity_time) };
    case 'DeviceActivity':
      return { recordType: 'DeviceActivityData', reference: record.log_id, bases: only(RECORD_TIME, record.activity_time) };
    // Records with a life of their own count from their end, and have no marker before it (record-changes/ has each).
    case 'SupportAccess':
      return supportAccessEnded(record) ? { recordType: 'SupportAccessData', reference: record.request_reference, bases: only(RECORD_TIME, record.updated_at) } : undefined;
    // Released: marked at once, though the release's walk over the objects must finish before it is disposed of.
    case 'LegalHold':
      return record.is_active === false ? { recordType: 'LegalHoldData', reference: `${record.target_type}/${record.target}`, bases: only(RECORD_TIME, record.updated_at) } : undefined;
    case 'Transfer':
      return transferEnded(record) ? { recordType: 'TransferableData', reference: record.transfer_id, bases: only(RECORD_TIME, record.completed_at) } : undefined;
    case 'Migration':
      return migrationEnded(record) ? { recordType: 'LegacyMigrationData', reference: record.migration_reference, bases: only(RECORD_TIME, record.migrated_at) } : undefined;
    case 'DeviceUser':
      return deviceUserEnded(record) ? { recordType: 'DeviceUserData', reference: record.device_user_reference, bases: only(RECORD_TIME, record.offboard_date) } : undefined;
    // A ledger entry counts from the call or message it saw (its start), as a call recording from its payload_time.
    case 'LedgerEntry':
      return { recordType: 'CaptureLedgerData', reference: ledgerEntryReference(record.device_reference, record.entry_id), bases: only(RECORD_TIME, record.start_time) };
    // A review item counts from its closing; reopened, it has no marker until it closes again.
    case 'SupervisionItem':
      return supervisionItemEnded(record) ? { recordType: 'SupervisionData', reference: record.item_reference, bases: only(RECORD_TIME, record.closed_at) } : undefined;
    // A case counts from its closing (with its production log); an open case has no marker.
    case 'Case':
      return caseEnded(record) ? { recordType: 'CaseData', reference: record.case_ref, bases: only(RECORD_TIME, record.closed_at) } : undefined;
    // A four eyes' change counts from its decision (or expiry) under the activity records' period: it is the record of
    // who asked and who approved, beside the activity records of both acts. A pending one has no marker.
    case 'PendingChange':
      return approvalEnded(record) ? { recordType: 'UserActivityData', reference: record.approval_reference, bases: only(RECORD_TIME, record.decided_at) } : undefined;
    // An erasure request counts from its end (erased and reported, rejected, or given up); an open one has no marker.
    case 'ErasureRequest':
      return erasureRequestEnded(record)
        ? { recordType: 'ErasureRequestData', reference: record.erasure_request_reference, bases: only(RECORD_TIME, record.completed_at) }
        : undefined;
  }
}

/** The retained record an item is, or undefined for an item no record type covers. */
export function retainedRecordOf(item: TableItem): RetainedRecord | undefined {
  const retained = readRetainedItem(item);
  return retained === undefined ? undefined : retainedRecordFrom(item, retained);
}

/** The same, of an item already read as a retained record (undefined while the record has not ended). */
export function retainedRecordFrom(key: ItemKey, retained: RetainedItem): RetainedRecord | undefined {
  const record = describe(retained);
  return record === undefined ? undefined : { ...record, key: { pk: key.pk, sk: key.sk } };
}

/** The stage a record's markers belong in, from the record's own state (undefined: it has none any more). */
export function stageOf(item: TableItem): DueStage | undefined {
  const retained = readRetainedItem(item);
  return retained === undefined ? 'LIVE' : stageOfState(stateOf(retained));
}

/** The state that decides a record's stage: a payload's own state, else what retention marked on it. */
export function stateOf(record: RetainedItem): string | undefined {
  return record.entity === 'Payload' ? record.payload_state : record.retention_state;
}

function stageOfState(state: string | undefined): DueStage | undefined {
  if (state === 'Destroyed') return undefined;
  return state === 'Deleted' ? 'DELETED' : 'LIVE';
}

/** The markers of one record (one per time it has), in the given stage. */
export function markersOf(client: string, record: RetainedRecord, stage: DueStage): RetentionDueItem[] {
  return Object.entries(record.bases).map(([kind, baseTime]) => ({
    client,
    record_type: record.recordType,
    ...(record.payloadType === undefined ? {} : { payload_type: record.payloadType }),
    kind,
    stage,
    base_time: baseTime,
    record_pk: record.key.pk,
    record_sk: record.key.sk,
    reference: record.reference,
  }));
}

/**
 * The marker items to write beside a record's own write (a new record, or one that gained a time such as
 * `processed_at`), for any stored item: none for an entity no record type covers. Written unconditionally: a record
 * rewritten in its live state puts back the same markers.
 */
export function dueMarkerItems(client: string, item: TableItem): TableItem[] {
  const retained = readRetainedItem(item);
  const record = retained === undefined ? undefined : retainedRecordFrom(item, retained);
  const stage = retained === undefined ? undefined : stageOfState(stateOf(retained));
  if (record === undefined || stage === undefined) return [];
  return markersOf(client, record, stage).map(retentionDueToItem);
}

/** The same as transaction puts, to add to the record's own transaction. */
export function dueMarkerPuts(client: string, item: TableItem): TransactOperation[] {
  return dueMarkerItems(client, item).map((marker) => ({ kind: 'put', item: marker }));
}

/**
 * The writes that keep a record's markers in step with a change a writer makes to it: its markers put (in the stage
 * its state gives) when it has them, else removed. For records that can go back (a user onboarded again, a hold placed
 * again) the removal is what takes a no-longer-due record off the index; deleting a marker that is not there is
 * harmless. Only for the kind `at` (every record type but PayloadData).
 */
export function dueMarkerSync(client: string, item: TableItem): TransactOperation[] {
  const puts = dueMarkerPuts(client, item);
  return puts.length > 0 ? puts : [{ kind: 'delete', key: keys.retentionDue.key(client, { pk: item.pk, sk: item.sk }, RECORD_TIME) }];
}

/** The keys of every marker a record may have (every kind), for moving or removing them all at once. */
export function markerKeysOf(client: string, record: RetainedRecord): ItemKey[] {
  const kinds = record.recordType === 'PayloadData' ? RETENTION_TIMESTAMP_TYPES : [RECORD_TIME];
  return kinds.filter((kind) => record.bases[kind] !== undefined).map((kind) => keys.retentionDue.key(client, record.key, kind));
}

/** A payload as its writers hold it (typed, without keys): what its markers are made from. */
export interface PayloadTimes {
  payload_reference: string;
  payload_type?: string | undefined;
  payload_state?: string | undefined;
  payload_time?: string | undefined;
  processed_at?: string | undefined;
  transferred_at?: string | undefined;
  receipt_confirmed_at?: string | undefined;
}

/**
 * The markers of a payload, for its writers: registration (its `payload_time`), processing (`processed_at`), receipts
 * (`receipt_confirmed_at`) and restore (all, back in the live stage). `kinds` keeps only the times just written.
 */
export function payloadDueMarkerItems(client: string, payload: PayloadTimes, kinds?: readonly string[]): TableItem[] {
  const stage = stageOfState(payload.payload_state);
  if (stage === undefined) return [];
  const record = { ...payloadRecord(payload), key: keys.payload.key(client, payload.payload_reference) };
  return markersOf(client, record, stage)
    .filter((marker) => kinds === undefined || kinds.includes(marker.kind))
    .map(retentionDueToItem);
}
