import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readDeviceUser } from '#core/store/entities/device-user.ts';
import { keys } from '#core/store/keys.ts';
import type { LegalHold, RetentionPolicy, RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import type { PendingChange } from '#shared/contract/entities/approvals.ts';
import { readHold, type HoldTarget } from '../legal-holds/coverage.ts';
import { releaseLegalHold } from '../legal-holds/legal-holds.ts';
import { withinRegulatoryFloor } from '../retention/regulatory-floor.ts';
import { getRetentionPolicy, putRetentionPolicy } from '../retention/retention-policy.ts';
import { requestChange, type ApplyChange } from './approvals.ts';
import type { ApprovalItem } from './approval-store.ts';
import { retentionShortening } from './retention-shortening.ts';

/**
 * Four eyes on what shortens a record's life (docs/decisions.md "Four eyes"): the direct endpoints ask here first.
 * A change that shortens nothing applies at once, through the code path it always took; one that shortens is stored
 * as a pending change and applied through that same path when a second person approves it (./approvals.ts).
 */

/** The permissions the changes need; an approver must hold the same. */
const RELEASE_ACTION = 'legalHolds:Release';
const RETENTION_ACTION = 'retention:Update';

export type HoldReleaseOutcome = { outcome: 'released'; hold: LegalHold } | { outcome: 'pending'; change: PendingChange };

/**
 * Releasing a legal hold: an active hold's release waits for a second approver (`pending`); a hold already released
 * is stamped again at once (`released`: it shortens nothing, and finishes a release whose object walk failed).
 * 404 when the target never had a hold, or is a device user outside the caller's groups. The area's public module
 * exports it: closing a case releases its holds through here.
 */
export async function requestHoldRelease(caller: TenantCaller, target: HoldTarget, reason?: string): Promise<HoldReleaseOutcome> {
  const existing = await readHold(caller.deps, caller.tenant, target);
  if (existing?.is_active !== true) return { outcome: 'released', hold: await releaseLegalHold(caller, target) };
  await requireVisibleTarget(caller, target);
  const change = await requestChange(caller, {
    kind: 'LegalHoldRelease',
    target: { kind: 'hold', hold: target },
    action: RELEASE_ACTION,
    shortens: [`The legal hold on ${target.targetType} ${target.target} ends: what it holds follows the retention policy again`],
    reason,
  });
  return { outcome: 'pending', change };
}

/**
 * A device user's hold is requested only by someone who may see that device user (as releasing it directly); one
 * deleted since is no obstacle (the hold outlives them), and a portal user belongs to no group.
 */
async function requireVisibleTarget(caller: TenantCaller, target: HoldTarget): Promise<void> {
  if (target.targetType !== 'DeviceUser') return;
  const item = await caller.deps.table.get(keys.deviceUser.key(caller.tenant, target.target), { consistent: true });
  if (item === undefined) return;
  await caller.groupScope().visible(readDeviceUser(item), () => new NotFoundError(`Device user ${target.target} not found`));
}

export type RetentionOutcome = { outcome: 'applied'; policy: RetentionPolicy } | { outcome: 'pending'; change: PendingChange };

/**
 * `PUT account/retention`: judged against the regulatory floor first (400 naming the rule); then a change that
 * shortens a period or removes a rule waits for a second approver, and any other applies at once.
 */
export async function requestRetentionChange(caller: TenantCaller, request: RetentionPolicyRequest): Promise<RetentionOutcome> {
  const floored = await withinRegulatoryFloor(caller, request);
  const current = await getRetentionPolicy(caller.deps, caller.tenant);
  const shortens = retentionShortening(current, floored);
  if (shortens.length === 0) return { outcome: 'applied', policy: await putRetentionPolicy(caller, floored) };
  const change = await requestChange(caller, {
    kind: 'RetentionPolicyChange',
    target: { kind: 'retention' },
    action: RETENTION_ACTION,
    shortens,
    retentionPolicy: floored,
    basedOn: current.updated_at ?? 'defaults',
  });
  return { outcome: 'pending', change };
}

/**
 * Applies an approved change as the approver, through the direct change's own code: the hold's release (its version,
 * object and marker syncs), or the policy's save (judged against the floor again, its version and object lock sync).
 * A policy changed since the request is not overwritten by it: 409, reject it and request again.
 */
export const applyApproved: ApplyChange = async (caller: TenantCaller, approval: ApprovalItem, stored: TableItem) => {
  if (approval.kind === 'LegalHoldRelease') {
    if (approval.target_type === undefined || approval.target === undefined) throw new Error('A hold release names its hold');
    await releaseLegalHold(caller, { targetType: approval.target_type, target: approval.target });
    return;
  }
  if (approval.retention_policy === undefined) throw new Error('A retention change carries its policy');
  const current = await getRetentionPolicy(caller.deps, caller.tenant);
  if ((current.updated_at ?? 'defaults') !== stored.based_on) {
    throw new ConflictError(
      `The retention policy changed since pending change ${approval.approval_reference} was requested: reject it and request the change again`,
    );
  }
  await putRetentionPolicy(caller, await withinRegulatoryFloor(caller, approval.retention_policy));
};
