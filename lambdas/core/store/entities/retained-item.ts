import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { alertItemSchema } from './alert.ts';
import { approvalItemSchema } from './approval.ts';
import { erasureRequestItemSchema } from './erasure-request.ts';
import { activityChainStateSchema } from './audit-chain.ts';
import { deviceActivityItemSchema } from './device-activity.ts';
import { deviceLogItemSchema } from './device-log.ts';
import { deviceUserItemSchema } from './device-user.ts';
import { gpsItemSchema } from './gps.ts';
import { legalHoldItemSchema } from './legal-hold.ts';
import { ledgerEntryItemSchema } from './ledger-entry.ts';
import { migrationItemSchema } from './migration.ts';
import { payloadItemSchema } from './payload.ts';
import { readItem } from './read-item.ts';
import { supportAccessItemSchema } from './support-access.ts';
import { transferItemSchema } from './transfer.ts';
import { userActivityItemSchema } from './user-activity.ts';

/**
 * What retention reads of each record it keeps due markers for and disposes of (lambdas/account-data/retention/): the
 * record's own reference, the times a policy may count from, the state that says whether it has ended, and retention's
 * own marks. Picked from each entity's item schema, so an attribute is defined once; the rest of the item is left
 * unread, because the due index is also handed the part of a record a writer just changed (a migration's outcome, a
 * transfer's closing) and must not fail on what it does not need. The times and states are optional: a record without
 * a time has no marker for it, and one without its state has not ended.
 */

/** What retention writes on a record it disposed of and kept (record-changes/ in retention). */
const retentionMarksSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  retention_state: z.enum(['Deleted', 'Destroyed']).optional(),
  deleted_at: z.string().optional(),
}));

/** Where an activity record stands in its trail's chain (lambdas/audit/trail/sequencer.ts writes both). */
const chainPlaceSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  chain_state: activityChainStateSchema().optional(),
  sequence: z.number().optional(),
}));

const retainedSchemas = /* @__PURE__ */ onFirstUse(() => ({
  Payload: payloadItemSchema().pick({
    payload_reference: true,
    payload_type: true,
    payload_state: true,
    payload_time: true,
    processed_at: true,
    transferred_at: true,
    receipt_confirmed_at: true,
    checksum: true,
  })
    .partial({ payload_type: true, payload_state: true })
    .extend({ entity: z.literal('Payload'), deleted_at: z.string().optional() }),
  Gps: gpsItemSchema().pick({ gps_reference: true, timestamp: true }).partial({ timestamp: true }).extend({ entity: z.literal('Gps'), ...retentionMarksSchema().shape }),
  DeviceLog: deviceLogItemSchema().pick({ log_id: true, log_datetime: true })
    .partial({ log_datetime: true })
    .extend({ entity: z.literal('DeviceLog'), ...retentionMarksSchema().shape }),
  Alert: alertItemSchema().pick({ alert_reference: true, alert_state: true, first_occurrence: true, last_occurrence: true })
    .partial({ alert_state: true, first_occurrence: true, last_occurrence: true })
    .extend({ entity: z.literal('Alert'), ...retentionMarksSchema().shape }),
  UserActivity: userActivityItemSchema().pick({ log_id: true, activity_time: true })
    .partial({ activity_time: true })
    .extend({ entity: z.literal('UserActivity'), ...retentionMarksSchema().shape, ...chainPlaceSchema().shape }),
  DeviceActivity: deviceActivityItemSchema().pick({ log_id: true, activity_time: true })
    .partial({ activity_time: true })
    .extend({ entity: z.literal('DeviceActivity'), ...retentionMarksSchema().shape, ...chainPlaceSchema().shape }),
  SupportAccess: supportAccessItemSchema().pick({ request_reference: true, approval_state: true, updated_at: true })
    .partial({ approval_state: true, updated_at: true })
    .extend({ entity: z.literal('SupportAccess'), ...retentionMarksSchema().shape }),
  LegalHold: legalHoldItemSchema().pick({ target_type: true, target: true, is_active: true, sync_state: true, updated_at: true })
    .partial({ is_active: true })
    .extend({ entity: z.literal('LegalHold'), ...retentionMarksSchema().shape }),
  Transfer: transferItemSchema().pick({ transfer_id: true, transfer_state: true, completed_at: true })
    .partial({ transfer_state: true })
    .extend({ entity: z.literal('Transfer'), ...retentionMarksSchema().shape }),
  // With its export file, which a destroyed migration's purge removes.
  Migration: migrationItemSchema().pick({ migration_reference: true, migration_state: true, migrated_at: true, object_key: true })
    .partial({ migration_state: true, object_key: true })
    .extend({ entity: z.literal('Migration'), ...retentionMarksSchema().shape }),
  DeviceUser: deviceUserItemSchema().pick({
    device_user_reference: true,
    group: true,
    is_active: true,
    is_legacy: true,
    offboard_date: true,
    updated_at: true,
    retention_state: true,
    deleted_at: true,
  })
    .partial({ is_active: true })
    .extend({ entity: z.literal('DeviceUser') }),
  // A phone's ledger entry (capture completeness): its device and id (together its reference), the start it counts
  // from, and its outcome (a Pending entry is still being reconciled, so not yet due).
  LedgerEntry: ledgerEntryItemSchema().pick({ entry_id: true, device_reference: true, start_time: true, outcome: true })
    .partial({ start_time: true, outcome: true })
    .extend({ entity: z.literal('LedgerEntry'), ...retentionMarksSchema().shape }),
  // A supervision review item: its reference, the state that says whether it has ended (Closed) and when it closed.
  SupervisionItem: z.object({
    entity: z.literal('SupervisionItem'),
    item_reference: z.string(),
    state: z.string().optional(),
    closed_at: z.string().optional(),
    item_version: z.number().optional(),
    retention_state: z.enum(['Deleted', 'Destroyed']).optional(),
    deleted_at: z.string().optional(),
  }),
  // A case (matter): its reference, whether it is Closed and when, and the holds it placed (a hold still Active on a
  // closed case is a release its closing has not finished: the case is kept until it has).
  Case: z.object({
    entity: z.literal('Case'),
    case_ref: z.string(),
    state: z.string().optional(),
    closed_at: z.string().optional(),
    holds: z.array(z.object({ state: z.string() })).optional(),
    team: z.array(z.string()).optional(),
    support_may_view: z.boolean().optional(),
    ...retentionMarksSchema().shape,
  }),
  // A pending change under four eyes: once approved, rejected or expired (`decided_at`), the record of who asked and
  // who decided (or that nobody did), kept as long as the activity records.
  PendingChange: approvalItemSchema().pick({ approval_reference: true, status: true, decided_at: true })
    .partial({ status: true })
    .extend({ entity: z.literal('PendingChange'), ...retentionMarksSchema().shape }),
  // An erasure request: once completed, rejected or given up (`completed_at`), the firm's evidence of how it answered
  // the person (docs/erasure.md).
  ErasureRequest: erasureRequestItemSchema().pick({ erasure_request_reference: true, erasure_state: true, completed_at: true })
    .extend({ entity: z.literal('ErasureRequest'), ...retentionMarksSchema().shape }),
}));

/** The entity tags of the records retention keeps. */
export type RetainedEntity = keyof ReturnType<typeof retainedSchemas>;

/** A retained record of one entity, as retention reads it. */
export type RetainedItemOf<E extends RetainedEntity> = z.infer<ReturnType<typeof retainedSchemas>[E]>;

/** Any retained record, told apart by `entity`. */
export type RetainedItem = { [E in RetainedEntity]: RetainedItemOf<E> }[RetainedEntity];

export const isRetainedEntity = (entity: string): entity is RetainedEntity => Object.hasOwn(retainedSchemas(), entity);

/** The item as the retained record it is, or undefined for an entity retention does not keep. */
export function readRetainedItem(item: TableItem): RetainedItem | undefined {
  return isRetainedEntity(item.entity) ? readRetainedAs(item.entity, item) : undefined;
}

/** The item read as a retained record of `entity` (the caller knows which: its own record type's module). */
export function readRetainedAs<E extends RetainedEntity>(entity: E, item: TableItem): RetainedItemOf<E> {
  // TypeScript cannot follow an indexed schema through z.infer; the schema read is the one of `entity`.
  return readItem(entity, retainedSchemas()[entity], item) as RetainedItemOf<E>;
}
