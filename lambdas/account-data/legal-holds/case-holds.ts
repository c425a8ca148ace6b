import type { TenantCaller } from '#core/http/caller.ts';
import { ConditionFailedError, type WriteCondition } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { readHold, type HoldTarget } from './coverage.ts';
import { putLegalHold } from './legal-holds.ts';

/**
 * Legal holds a case places and releases (docs/cases.md, "Holds"). A person has one hold item; `placed_by_cases`
 * names the open cases that placed it and nobody else has placed since. A person placing the hold (PUT) rewrites the
 * item without that field, so from then on it is theirs and no case releases it. Closing a case releases the hold
 * only when that case is the last one on it; another case on the same person keeps it in force.
 */

/** What became of a case's request to hold a device user. */
export type CaseHoldPlacing = 'Placed' | 'HeldByOther';

/** What became of a case's release of a hold it placed. */
export type CaseHoldRelease = 'Released' | 'AwaitingApproval' | 'KeptByOther' | 'AlreadyReleased';

/** The write holds only while the hold is as read: active, last placed or released at `updatedAt`. */
const heldAsRead = (updatedAt: string | undefined): WriteCondition => ({
  kind: 'expression',
  expression: '#a = :t AND #u = :u',
  names: { '#a': 'is_active', '#u': 'updated_at' },
  values: { ':t': true, ':u': updatedAt ?? '' },
});

/** Sets the cases a hold is placed by, if the hold is still as read; false when it changed meanwhile. */
async function setPlacedBy(caller: TenantCaller, target: HoldTarget, updatedAt: string | undefined, cases: readonly string[]): Promise<boolean> {
  try {
    await caller.deps.table.update(
      keys.legalHold.key(caller.tenant, target.targetType, target.target),
      cases.length === 0 ? { remove: ['placed_by_cases'] } : { set: { placed_by_cases: [...cases] } },
      { condition: heldAsRead(updatedAt) },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/**
 * Holds a device user for a case. A hold someone placed themselves is left as it is (`HeldByOther`: the case did not
 * place it, so it will never release it). A hold other cases placed gains this case. Otherwise the hold is placed
 * through the ordinary placing (its object walk included) and marked as this case's; should someone place it between
 * the two writes, the mark is not written and the hold is theirs.
 */
export async function placeHoldForCase(caller: TenantCaller, deviceUser: string, caseRef: string): Promise<CaseHoldPlacing> {
  const target: HoldTarget = { targetType: 'DeviceUser', target: deviceUser };
  const existing = await readHold(caller.deps, caller.tenant, target);
  if (existing?.is_active === true) {
    const cases = existing.placed_by_cases ?? [];
    if (cases.length === 0) return 'HeldByOther';
    if (cases.includes(caseRef)) return 'Placed';
    return (await setPlacedBy(caller, target, existing.updated_at, [...cases, caseRef])) ? 'Placed' : 'HeldByOther';
  }
  const placed = await putLegalHold(caller, target, true);
  return (await setPlacedBy(caller, target, placed.updated_at, [caseRef])) ? 'Placed' : 'HeldByOther';
}

/**
 * How the case's hold is released when it is the case's to release: through four eyes (`requestHoldRelease`), which
 * the cases area passes in, so releasing by closing a case is never easier than releasing directly.
 */
export type ReleaseHold = (caller: TenantCaller, target: HoldTarget) => Promise<'Released' | 'AwaitingApproval'>;

/**
 * Releases a case's hold on a device user: only when the hold is still active, this case placed it, and no other open
 * case did; else the case is only taken off the hold (`KeptByOther`), or it was released already (`AlreadyReleased`).
 */
export async function releaseHoldForCase(caller: TenantCaller, deviceUser: string, caseRef: string, release: ReleaseHold): Promise<CaseHoldRelease> {
  const target: HoldTarget = { targetType: 'DeviceUser', target: deviceUser };
  const existing = await readHold(caller.deps, caller.tenant, target);
  if (existing?.is_active !== true) return 'AlreadyReleased';
  const cases = existing.placed_by_cases ?? [];
  if (!cases.includes(caseRef)) return 'KeptByOther';
  const others = cases.filter((other) => other !== caseRef);
  if (others.length > 0) {
    if (await setPlacedBy(caller, target, existing.updated_at, others)) return 'KeptByOther';
    // Changed meanwhile (placed by a person, or released): read again and decide afresh.
    return releaseHoldForCase(caller, deviceUser, caseRef, release);
  }
  return release(caller, target);
}
