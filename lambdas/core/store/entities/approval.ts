import * as z from 'zod';
import type { LegalHoldTargetType } from '#shared/constants/account.ts';
import { PendingChange } from '#shared/contract/entities/approvals.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ListKey } from '../key-parts.ts';
import { legalHoldKeys } from './legal-hold.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Pending changes under four eyes (docs/decisions.md "Four eyes"): one partition per tenant, `APPROVAL#<reference>`
 * per change (ULIDs, so the list is newest first read descending), and one `PENDING#<target>` lock per target while
 * a change of it waits, written with the change on condition that it does not exist: at most one pending change per
 * target, without a read-then-write race. A tenant has a handful at a time (each waits days at most), so one
 * partition is no hot spot. A decided or expired change is the record of who asked and who approved (or that nobody
 * did): retention keeps it as long as the activity records (UserActivityData), counted from its decision.
 */
const approvalsPartition = (client: string) => `${tenantPrefix(client)}APPROVALS`;
const APPROVAL = 'APPROVAL#';
const PENDING = 'PENDING#';

/** What a pending change changes: one legal hold, or the tenant's retention policy. */
export type ApprovalTarget = { kind: 'hold'; hold: { targetType: LegalHoldTargetType; target: string } } | { kind: 'retention' };

// A hold's lock is named by the hold's own sort key (its entity module spells it), so one hold has one lock.
const targetPart = (client: string, target: ApprovalTarget) =>
  target.kind === 'hold' ? legalHoldKeys.key(client, target.hold.targetType, target.hold.target).sk : 'RETENTION';

export const approvalKeys = {
  change: (client: string, reference: string): ItemKey => ({ pk: approvalsPartition(client), sk: `${APPROVAL}${part(reference)}` }),
  lock: (client: string, target: ApprovalTarget): ItemKey => ({ pk: approvalsPartition(client), sk: `${PENDING}${targetPart(client, target)}` }),
  /** The tenant's changes, newest first when read descending. */
  list: (client: string): ListKey => ({ partition: approvalsPartition(client), sort: { beginsWith: APPROVAL } }),
};

/** The change as stored: the contract's fields, its tenant, retention's marks, and the policy time it was judged on. */
export const approvalItemSchema = /* @__PURE__ */ onFirstUse(() =>
  PendingChange.extend({
    client: z.string(),
    based_on: z.string().optional(),
    retention_state: z.enum(['Deleted', 'Destroyed']).optional(),
    deleted_at: z.string().optional(),
  }),
);
export type ApprovalItem = z.infer<ReturnType<typeof approvalItemSchema>>;

export const readApproval = (item: TableItem): ApprovalItem => readItem('PendingChange', approvalItemSchema(), item);

export const approvalToItem = (approval: ApprovalItem): TableItem => ({
  ...approvalKeys.change(approval.client, approval.approval_reference),
  entity: ENTITY.pendingChange,
  ...approval,
});

/** The lock naming the change that waits on a target. */
export const approvalLockItem = (client: string, target: ApprovalTarget, reference: string): TableItem => ({
  ...approvalKeys.lock(client, target),
  entity: ENTITY.pendingChangeLock,
  client,
  approval_reference: reference,
});

/** What docs/data-model.md says of these entities, generated from the builders above (entity-model.ts). */
export const pendingChangeModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.pendingChange,
  title: 'Pending change (four eyes): a hold release or a retention change waiting for a second approver, then its decision',
  module: 'approval.ts',
  indexes: {},
  items: [{ example: () => ({ ...approvalKeys.change(EXAMPLE_CLIENT, '<approval_reference>'), entity: ENTITY.pendingChange }) }],
  accessPatterns: [
    {
      name: 'Get / decide a pending change (conditional on it being still Pending)',
      serves: '`GET approvals/{approval_reference}`, `POST …/approve`, `POST …/reject`, its expiry on read',
      builders: ['keys.approval.change'],
      example: () => approvalKeys.change(EXAMPLE_CLIENT, '<approval_reference>'),
    },
    {
      name: "The tenant's pending and decided changes, newest first",
      serves: '`GET approvals` (status and group scope filter the items read: a handful at a time)',
      builders: ['keys.approval.list'],
      example: () => approvalKeys.list(EXAMPLE_CLIENT),
    },
  ],
}));

export const pendingChangeLockModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.pendingChangeLock,
  title: 'Pending change lock: the one change waiting on a target (a hold, or the retention policy)',
  module: 'approval.ts',
  indexes: {},
  items: [{ example: () => ({ ...approvalKeys.lock(EXAMPLE_CLIENT, { kind: 'retention' }), entity: ENTITY.pendingChangeLock }) }],
  accessPatterns: [
    {
      name: 'The change waiting on a target (written with it on condition it does not exist; removed with its decision)',
      serves: 'a hold release or a shortening retention change (409 naming the one already waiting)',
      builders: ['keys.approval.lock'],
      example: () => approvalKeys.lock(EXAMPLE_CLIENT, { kind: 'retention' }),
    },
  ],
}));
