import * as z from 'zod';
import type { TableItem, TransactOperation } from '#core/ports/table-store.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { readItem } from '#core/store/entities/read-item.ts';
import { onFirstUse } from '#core/on-first-use.ts';
import { keys } from '#core/store/keys.ts';
import { LEDGER_PAYLOAD_TYPES } from '#shared/constants/completeness.ts';
import type { DisposalWrite } from './shared.ts';

/**
 * What a destroyed recording leaves in the table (docs/decisions.md "Retention job", "What a destroyed recording
 * keeps"). The spec makes Destroyed "unrecoverable; metadata follows a separate retention": the recording and its
 * personal content go (sealed meta with its key, numbers, thread, IP address, failure and scan details), and what
 * remains is the record that it existed and was destroyed lawfully: its reference, type, group, device and device
 * user references, its times, checksum, state Destroyed, `destroyed_at` and the disposal that destroyed it. That
 * remnant is kept as long as its disposal record, without end: it holds nothing the disposal record does not, but
 * the device attribution and list placement, so the recording lists and the recording page still answer for it.
 *
 * Kept by name (anything else goes), so an attribute added to payloads later is dropped unless it is added here.
 */
export const DESTROYED_PAYLOAD_KEEPS = [
  // Placement: the item's keys and its lists (by tenant, device and device user, all by payload time). Not its
  // byProcessedAt keys: that index holds Processed recordings only.
  'pk',
  'sk',
  'entity',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  // What it was and whose device made it (group: group scope still decides who may see the remnant).
  'client',
  'payload_reference',
  'payload_type',
  'device_reference',
  'device_user_reference',
  'group',
  'checksum',
  'is_legacy',
  'is_late',
  'legacy_payload_reference',
  // Its times.
  'payload_time',
  'payload_duration',
  'uploaded_at',
  'processed_at',
  'transferred_at',
  'receipt_confirmed_at',
  'legacy_processed_time',
  'created_at',
  'deleted_at',
] as const;

const KEPT = new Set<string>(DESTROYED_PAYLOAD_KEEPS);

/** The remnant of a destroyed payload: its kept attributes, state Destroyed, when and by which disposal. */
export function destroyedPayloadItem(item: TableItem, disposal: Pick<DisposalItem, 'disposal_id' | 'disposed_at'>, actor: string): TableItem {
  const kept = Object.fromEntries(Object.entries(item).filter(([attribute]) => KEPT.has(attribute)));
  return {
    ...kept,
    pk: item.pk,
    sk: item.sk,
    entity: item.entity,
    payload_state: 'Destroyed',
    destroyed_at: disposal.disposed_at,
    disposal_id: disposal.disposal_id,
    updated_at: disposal.disposed_at,
    updated_by: actor,
  };
}

/**
 * A payload's change: Deleted marks it (restorable); Destroyed replaces the item by its remnant, a put conditional on
 * the state read, so nothing written meanwhile survives beside it and nothing is destroyed twice.
 */
export function payloadChange(item: TableItem, { action, condition, disposal }: DisposalWrite<Pick<DisposalItem, 'disposal_id' | 'disposed_at'>>, actor: string): TransactOperation[] {
  const now = disposal.disposed_at;
  if (action === 'Deleted') {
    // Out of the Processed recordings' index in the same write: a transfer never carries a deleted recording.
    const update = { set: { payload_state: 'Deleted', deleted_at: now, updated_at: now, updated_by: actor }, remove: keys.payload.processedKeyAttributes };
    return [{ kind: 'update', key: { pk: item.pk, sk: item.sk }, update, condition }];
  }
  return [{ kind: 'put', item: destroyedPayloadItem(item, disposal, actor), condition }];
}

/** The recordings capture completeness keeps an "awaiting entry" marker for when no ledger entry explained them. */
const RECONCILED_TYPES = new Set<string>([...LEDGER_PAYLOAD_TYPES, 'AbortedCall']);

/** Where a recording's marker is: its device's partition, by its time and reference. */
const awaitingPlaceSchema = onFirstUse(() =>
  z.object({ payload_reference: z.string(), payload_type: z.string().optional(), device_reference: z.string().optional(), payload_time: z.string().optional() }),
);

/**
 * A destroyed recording's "awaiting entry" marker goes with it, in the disposal's transaction (deleting one that is
 * not there is harmless). The marker is not a record of its own (not CaptureLedgerData): it is what reconciliation
 * knows of the recording while no ledger entry explains it, and it holds the recording's parties' numbers, which
 * destruction removes from the recording itself. The Unexpected count it may have added stays: counts are history.
 */
export function awaitingEntryRemoval(client: string, item: TableItem): TransactOperation[] {
  const place = readItem('Payload', awaitingPlaceSchema(), item);
  if (place.payload_type === undefined || !RECONCILED_TYPES.has(place.payload_type) || place.device_reference === undefined || place.payload_time === undefined) return [];
  return [{ kind: 'delete', key: keys.awaitingEntry.key(client, place.device_reference, place.payload_time, place.payload_reference) }];
}
