import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { readSupportAccess, supportAccessToItem, type SupportAccessItem } from '#core/store/entities/support-access.ts';
import { ConditionFailedError, type TableItem, type TableStore } from '#core/ports/table-store.ts';
import { dueMarkerPuts } from '../account-data/public.ts';
import { keys, part, type ListKey } from '#core/store/keys.ts';
import { SupportAccessStateConflict, type SupportAccessEvent } from './state-machine.ts';

/**
 * The stored support-access request: exactly the contract's SupportAccess fields (support mode in the HTTP stack reads
 * `approval_state` and `approval_expiry` from this item) plus who asked and who changed it last.
 *
 * Modelling note: the item lives in its tenant's `SUPPORT` partition (the tenant's list, by ULID so by age) and, on
 * gsi1, in a per-state partition of the provider's own tenant (staff's "all pending requests" list, and the expiry
 * job's work list). Because the state is part of the gsi1 key, every state change rewrites gsi1pk in the same
 * conditional update that changes `approval_state`, so the index can never disagree with the item.
 */
export type SupportAccessRecord = SupportAccessItem;

export { toSupportAccess } from '#core/store/entities/support-access.ts';

/** The request, read consistently (a decision must see the latest state), or undefined. */
export async function getRequest(table: TableStore, client: string, reference: string): Promise<SupportAccessRecord | undefined> {
  const item = await table.get(keys.supportAccess.key(client, reference), { consistent: true });
  return item === undefined ? undefined : readSupportAccess(item);
}

/** Stores a new request; a ULID collision (never expected) surfaces as a 409 rather than overwriting. */
export async function putRequest(table: TableStore, record: SupportAccessRecord): Promise<void> {
  await table.put(supportAccessToItem(record), { condition: { kind: 'item-not-exists' } });
}

/**
 * Moves a request from the state it was read in to `to`, in ONE conditional update: the condition is on the state
 * read, so of two racing decisions only the first wins and the second gets a 409 naming the state it lost to.
 * `set` adds the event's own fields (approval_expiry, approved_by, rejection_reason).
 */
export async function changeState(
  table: TableStore,
  read: SupportAccessRecord,
  change: { event: SupportAccessEvent; to: SupportAccessApprovalState; at: string; by: string; set?: Record<string, unknown> },
): Promise<SupportAccessRecord> {
  const keyed = keys.supportAccess.item(read.client, read.request_reference, change.to);
  const key = keys.supportAccess.key(read.client, read.request_reference);
  const set = { ...change.set, approval_state: change.to, gsi1pk: keyed.gsi1pk, gsi1sk: keyed.gsi1sk, updated_at: change.at, updated_by: change.by };
  const after: TableItem = { ...supportAccessToItem(read), ...set };
  try {
    // A request that ends here is a retained record from now on: its retention due marker goes in the same write.
    await table.transactWrite([
      {
        kind: 'update',
        key,
        update: { set },
        condition: { kind: 'expression', expression: '#state = :read', names: { '#state': 'approval_state' }, values: { ':read': read.approval_state } },
      },
      ...dueMarkerPuts(read.client, after),
    ]);
    return readSupportAccess(after);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const now = await getRequest(table, read.client, read.request_reference);
    throw new SupportAccessStateConflict(now?.approval_state ?? read.approval_state, change.event);
  }
}

/**
 * Where a list of requests is read from. One tenant's requests: its own partition, or, filtered by state, that
 * state's gsi1 partition narrowed to the tenant's sort-key prefix (a client slug has no `#`, so `demo#` never
 * matches `demo2#…`). Across tenants: the state's whole partition.
 */
export function listSource(scope: { client?: string; state?: SupportAccessApprovalState }): {
  list: ListKey;
  sort?: { beginsWith: string };
} {
  if (scope.client === undefined) {
    if (scope.state === undefined) throw new Error('listSource: a cross-tenant list needs a state');
    return { list: keys.supportAccess.listByState(scope.state) };
  }
  if (scope.state === undefined) return { list: keys.supportAccess.list(scope.client) };
  return { list: keys.supportAccess.listByState(scope.state), sort: { beginsWith: `${part(scope.client)}#` } };
}
