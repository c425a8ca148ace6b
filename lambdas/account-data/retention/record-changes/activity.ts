import type { TableItem, TransactOperation, WriteCondition } from '#core/ports/table-store.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { readRetainedAs } from '#core/store/entities/retained-item.ts';
import { keys, type ActivityTrail } from '#core/store/keys.ts';
import type { DisposalWrite } from './shared.ts';
import { destroyedRecordStub } from '../../../audit/public.ts';

/**
 * A user or device activity record's change (docs/decisions.md "Audit trail", "Records retention disposes of").
 * Deleted marks it (`retention_state`, `deleted_at`, `disposal_id`: retention's marks, outside the chain's entry
 * hash). Destroyed removes its content; when a chain link names the record, what the chain needs stays in its place
 * (a stub: log id, sequence, the entry hash its link holds, and the disposal that destroyed it), so the verifier tells
 * a lawful disposal from a removal. A record no link names yet is deleted whole, on condition that it is still
 * unlinked.
 *
 * The same transaction moves the trail's count of disposed records (`keys.activityChain.disposedCount`): the trail's
 * total is the head's sequence plus the pending records less that count, so it must say how many of the records the
 * head and the pending index count are disposed of. Deleting a record adds it; destroying a live linked record adds
 * it (its stub keeps its place in the sequence); destroying a live unlinked one changes nothing (it leaves the pending
 * index as it goes); destroying a deleted linked one changes nothing (counted at deletion); destroying a deleted
 * record still unlinked takes it out again (it leaves the pending index, which counted it).
 */
export function activityChange(client: string, item: TableItem, { action, condition, disposal }: DisposalWrite<Pick<DisposalItem, 'disposal_id' | 'disposed_at'>>): TransactOperation[] {
  const key = { pk: item.pk, sk: item.sk };
  const now = disposal.disposed_at;
  const trail = trailOf(item);
  const record = readRetainedAs(trail === 'device' ? 'DeviceActivity' : 'UserActivity', item);
  const counted = (by: number): TransactOperation[] => (by === 0 ? [] : [disposedCountChange(client, trail, by)]);
  if (action === 'Deleted') {
    return [{ kind: 'update', key, update: { set: { retention_state: 'Deleted', deleted_at: now, disposal_id: disposal.disposal_id } }, condition }, ...counted(1)];
  }
  const linked = record.chain_state === 'linked' && record.sequence !== undefined;
  // The condition keeps the record in the retention state read (live, or Deleted for a destruction pass).
  const wasDeleted = record.retention_state === 'Deleted';
  const stillAsRead = withChainState(condition, record.chain_state);
  return linked
    ? [{ kind: 'put', item: destroyedRecordStub(item, disposal), condition: stillAsRead }, ...counted(wasDeleted ? 0 : 1)]
    : [{ kind: 'delete', key, condition: stillAsRead }, ...counted(wasDeleted ? -1 : 0)];
}

function trailOf(item: TableItem): ActivityTrail {
  return item.entity === 'DeviceActivity' ? 'device' : 'user';
}

/**
 * An atomic ADD on the trail's count of disposed records, with no condition: dispose.ts merges the ADDs a transaction
 * makes on one item into one (a transaction may write an item once).
 */
export function disposedCountChange(client: string, trail: ActivityTrail, by: number): TransactOperation {
  const { entity, ...key } = keys.activityChain.disposedCount(trail, client);
  return { kind: 'update', key, update: { set: { entity, client }, add: { disposed_count: by } } };
}

/** The condition, and the record's chain state as read (the sequencer may link it meanwhile). */
function withChainState(condition: WriteCondition, chainState: string | undefined): WriteCondition {
  if (condition.kind !== 'expression') return condition;
  const names = { ...condition.names, '#chain': 'chain_state' };
  if (chainState === undefined) return { ...condition, expression: `(${condition.expression}) AND attribute_not_exists(#chain)`, names };
  return { ...condition, expression: `(${condition.expression}) AND #chain = :chain`, names, values: { ...condition.values, ':chain': chainState } };
}
