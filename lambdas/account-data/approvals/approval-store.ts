import * as z from 'zod';
import { onFirstUse } from '#core/on-first-use.ts';
import type { ItemKey, TableItem } from '#core/ports/table-store.ts';
import { keys, part, tenantPrefix } from '#core/store/keys.ts';
import { readItem } from '#core/store/entities/read-item.ts';
import { PendingChange } from '#shared/contract/entities/approvals.ts';
import type { HoldTarget } from '../legal-holds/coverage.ts';

/**
 * Pending changes share one partition per tenant: `APPROVAL#<reference>` per change (ULIDs, so the list is newest
 * first read descending), and one `PENDING#<target>` lock per target while a change of it waits, written with the
 * change on condition that it does not exist: at most one pending change per target, without a read-then-write race.
 * A tenant has a handful at a time (each waits days at most), so one partition is no hot spot.
 * Kept in this area rather than in core's key registry while other parts of record integrity edit those shared files;
 * a TableItem's entity tag is a plain string either way.
 */
const approvalsPartition = (client: string) => `${tenantPrefix(client)}APPROVALS`;
const APPROVAL = 'APPROVAL#';

export const APPROVAL_ENTITY = { change: 'PendingChange', lock: 'PendingChangeLock' } as const;

/** What a pending change changes: one legal hold, or the tenant's retention policy. */
export type ApprovalTarget = { kind: 'hold'; hold: HoldTarget } | { kind: 'retention' };

// A hold's lock is named by the hold's own sort key (its entity module spells it), so one hold has one lock.
const targetPart = (client: string, target: ApprovalTarget) =>
  target.kind === 'hold' ? keys.legalHold.key(client, target.hold.targetType, target.hold.target).sk : 'RETENTION';

export const approvalKeys = {
  change: (client: string, reference: string): ItemKey => ({ pk: approvalsPartition(client), sk: `${APPROVAL}${part(reference)}` }),
  lock: (client: string, target: ApprovalTarget): ItemKey => ({ pk: approvalsPartition(client), sk: `PENDING#${targetPart(client, target)}` }),
  /** The tenant's changes, newest first when read descending. */
  list: (client: string) => ({ partition: approvalsPartition(client), sort: { beginsWith: APPROVAL } }),
};

export const approvalItemSchema = /* @__PURE__ */ onFirstUse(() => PendingChange.extend({ client: z.string() }));
export type ApprovalItem = z.infer<ReturnType<typeof approvalItemSchema>>;

export const readApproval = (item: TableItem): ApprovalItem => readItem('PendingChange', approvalItemSchema(), item);

export const approvalToItem = (approval: ApprovalItem): TableItem => ({
  ...approvalKeys.change(approval.client, approval.approval_reference),
  entity: APPROVAL_ENTITY.change,
  ...approval,
});

/** The lock naming the change that waits on a target. */
export const lockItem = (client: string, target: ApprovalTarget, reference: string): TableItem => ({
  ...approvalKeys.lock(client, target),
  entity: APPROVAL_ENTITY.lock,
  client,
  approval_reference: reference,
});

/** The target a stored change applies to. */
export function targetOf(approval: Pick<ApprovalItem, 'kind' | 'target_type' | 'target'>): ApprovalTarget {
  if (approval.kind === 'RetentionPolicyChange') return { kind: 'retention' };
  if (approval.target_type === undefined || approval.target === undefined) throw new Error('A hold release names its hold');
  return { kind: 'hold', hold: { targetType: approval.target_type, target: approval.target } };
}

/** The change as the API answers it (the tenant is the path's). */
export function toPendingChange(stored: ApprovalItem): PendingChange {
  const { client: _tenant, ...change } = stored;
  return change;
}
