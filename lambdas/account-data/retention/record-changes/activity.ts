import type { TableItem, TransactOperation, WriteCondition } from '#core/ports/table-store.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { destroyedRecordStub } from '../../../audit/trail/disposed-records.ts';

/**
 * A user or device activity record's change (docs/decisions.md "Audit trail", "Records retention disposes of").
 * Deleted marks it (`retention_state`, `deleted_at`, `disposal_id`: retention's marks, outside the chain's entry
 * hash). Destroyed removes its content; when a chain link names the record, what the chain needs stays in its place
 * (a stub: log id, sequence, the entry hash its link holds, and the disposal that destroyed it), so the verifier tells
 * a lawful disposal from a removal. A record no link names yet is deleted whole, on condition that it is still
 * unlinked.
 */
export function activityChange(item: TableItem, action: 'Deleted' | 'Destroyed', condition: WriteCondition, disposal: Pick<DisposalItem, 'disposal_id' | 'disposed_at'>): TransactOperation[] {
  const key = { pk: item.pk, sk: item.sk };
  const now = disposal.disposed_at;
  if (action === 'Deleted') return [{ kind: 'update', key, update: { set: { retention_state: 'Deleted', deleted_at: now, disposal_id: disposal.disposal_id } }, condition }];
  const linked = item.chain_state === 'linked' && typeof item.sequence === 'number';
  const stillAsRead = withChainState(condition, item.chain_state);
  return linked
    ? [{ kind: 'put', item: destroyedRecordStub(item, disposal), condition: stillAsRead }]
    : [{ kind: 'delete', key, condition: stillAsRead }];
}

/** The condition, and the record's chain state as read (the sequencer may link it meanwhile). */
function withChainState(condition: WriteCondition, chainState: unknown): WriteCondition {
  if (condition.kind !== 'expression') return condition;
  const names = { ...condition.names, '#chain': 'chain_state' };
  if (typeof chainState !== 'string') return { ...condition, expression: `(${condition.expression}) AND attribute_not_exists(#chain)`, names };
  return { ...condition, expression: `(${condition.expression}) AND #chain = :chain`, names, values: { ...condition.values, ':chain': chainState } };
}
