import type { TableItem, TransactOperation } from '#core/ports/table-store.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { keys } from '#core/store/keys.ts';
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
