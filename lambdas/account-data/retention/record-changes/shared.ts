import type { TableItem, TransactOperation, WriteCondition } from '#core/ports/table-store.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import type { DisposeDependencies, DisposeOutcome } from '../dispose.ts';
import type { DuePass } from '../retention-rules.ts';

/** What each record type with a life of its own says about its disposal (by-entity.ts lists them). */
export interface RecordChanges {
  /** Whether the record has ended (what it counts from is set, and nothing can still change it): only then is it disposed of. */
  ended(item: TableItem): boolean;
  /** Its disposal writes items other disposals write too (counters), so it goes in a transaction of its own. */
  ownTransaction?: boolean;
  /** What keeps an ended record from disposal beyond the job's own checks (a hold, devices still assigned), or undefined. */
  refusal?(deps: DisposeDependencies, client: string, item: TableItem): Promise<DisposeOutcome | undefined>;
  /** The writes that change the record itself, in the disposal's transaction; `condition` keeps it in the state read. */
  change(deps: DisposeDependencies, client: string, item: TableItem, write: DisposalWrite): Promise<TransactOperation[]> | TransactOperation[];
}

/** What one disposal writes with: the pass's action, the condition that keeps the record as read, its disposal record. */
export interface DisposalWrite<D extends Pick<DisposalItem, 'disposal_id' | 'disposed_at'> = DisposalItem> {
  action: DuePass['action'];
  condition: WriteCondition;
  disposal: D;
}

/** The condition, narrowed further: the record is also still as `extra` says. */
export function alsoWhen(condition: WriteCondition, extra: { expression: string; names: Record<string, string>; values?: Record<string, unknown> }): WriteCondition {
  if (condition.kind !== 'expression') return { kind: 'expression', expression: `attribute_exists(#pk) AND ${extra.expression}`, names: { '#pk': 'pk', ...extra.names }, ...(extra.values ? { values: extra.values } : {}) };
  return {
    kind: 'expression',
    expression: `(${condition.expression}) AND ${extra.expression}`,
    names: { ...condition.names, ...extra.names },
    ...(condition.values || extra.values ? { values: { ...condition.values, ...extra.values } } : {}),
  };
}

/** Deleted marks the record (`retention_state`, `deleted_at`); it leaves the lists that show live data. */
export function markDeleted(item: TableItem, condition: WriteCondition, disposal: DisposalItem, set: Record<string, unknown> = {}): TransactOperation {
  return { kind: 'update', key: { pk: item.pk, sk: item.sk }, update: { set: { retention_state: 'Deleted', deleted_at: disposal.disposed_at, ...set } }, condition };
}

/** Destroyed, for a record whose parts go afterwards in batches (bulk-purge.ts): marked now, its item removed last. */
export function markDestroyed(item: TableItem, condition: WriteCondition, disposal: DisposalItem): TransactOperation {
  return { kind: 'update', key: { pk: item.pk, sk: item.sk }, update: { set: { retention_state: 'Destroyed', destroyed_at: disposal.disposed_at } }, condition };
}
