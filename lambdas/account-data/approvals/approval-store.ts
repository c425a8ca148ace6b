import {
  approvalKeys,
  approvalLockItem,
  approvalToItem,
  readApproval,
  type ApprovalItem,
  type ApprovalTarget,
} from '#core/store/entities/approval.ts';
import type { PendingChange } from '#shared/contract/entities/approvals.ts';

/**
 * Pending changes as this area reads and writes them. Their keys and item schema live in their entity module
 * (lambdas/core/store/entities/approval.ts, `keys.approval`), like every other entity's.
 */
export { approvalKeys, approvalToItem, readApproval, type ApprovalItem, type ApprovalTarget };

/** The lock naming the change that waits on a target. */
export const lockItem = approvalLockItem;

/** The target a stored change applies to. */
export function targetOf(approval: Pick<ApprovalItem, 'kind' | 'target_type' | 'target'>): ApprovalTarget {
  if (approval.kind === 'RetentionPolicyChange') return { kind: 'retention' };
  if (approval.target_type === undefined || approval.target === undefined) throw new Error('A hold release names its hold');
  return { kind: 'hold', hold: { targetType: approval.target_type, target: approval.target } };
}

/** The change as the API answers it: the contract's fields only (not the tenant, nor retention's or the policy's marks). */
export function toPendingChange(stored: ApprovalItem): PendingChange {
  const { client: _tenant, based_on: _basedOn, retention_state: _state, deleted_at: _deleted, ...change } = stored;
  return change;
}
