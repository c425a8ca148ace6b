import type { TenantCaller } from '#core/http/caller.ts';
import type { CaseItem } from '#core/store/entities/case.ts';
import { keys } from '#core/store/keys.ts';
import type { CaseHold } from '#shared/contract/entities/cases.ts';
import { ConflictError } from '#core/errors.ts';
import { placeHoldForCase, releaseHoldForCase, requestHoldRelease } from '../account-data/public.ts';

/**
 * A case's legal holds (collect and hold), placed and released through the legal-holds code (account-data area),
 * which marks each hold with the cases that placed it. The case records each hold it placed as soon as it is placed,
 * so the case is true at every step: a request that fails part-way leaves the holds placed so far recorded on both.
 */

/** Writes the case's record of its holds (only the case itself: its team, fields and seats are not touched). */
async function recordHolds(caller: TenantCaller, stored: CaseItem, holds: CaseHold[]): Promise<CaseItem> {
  const changed = { ...stored, holds };
  await caller.deps.table.update(keys.case.key(stored.client, stored.case_ref), { set: { holds } });
  return changed;
}

/**
 * Holds each of `deviceUsers` for the case, one after the other, recording each hold the case placed. A person already
 * held by someone else is not the case's hold and is not recorded (closing the case must not release it).
 */
export async function placeCaseHolds(caller: TenantCaller, stored: CaseItem, deviceUsers: readonly string[]): Promise<CaseItem> {
  let current = stored;
  for (const deviceUser of deviceUsers) {
    const outcome = await placeHoldForCase(caller, deviceUser, stored.case_ref);
    if (outcome !== 'Placed') continue;
    const hold: CaseHold = { target_type: 'DeviceUser', target: deviceUser, placed_at: caller.deps.clock.now().toISOString(), state: 'Active' };
    current = await recordHolds(caller, current, [...current.holds.filter((other) => other.target !== deviceUser), hold]);
  }
  return current;
}

/**
 * Releases a hold through four eyes (lambdas/account-data, `requestHoldRelease`): an active hold's release waits for a
 * second approver, so the case shows it as awaiting approval with the pending change's reference. A release already
 * waiting on the same hold (409) is that same wait.
 */
async function releaseThroughFourEyes(caller: TenantCaller, target: string, caseRef: string): Promise<Pick<CaseHold, 'state' | 'approval_reference'>> {
  let reference: string | undefined;
  const outcome = await releaseHoldForCase(caller, target, caseRef, async (releasing, hold) => {
    try {
      const answer = await requestHoldRelease(releasing, hold, `Case ${caseRef} closed`);
      if (answer.outcome === 'released') return 'Released';
      reference = answer.change.approval_reference;
      return 'AwaitingApproval';
    } catch (error) {
      if (error instanceof ConflictError) return 'AwaitingApproval';
      throw error;
    }
  });
  return { state: outcome, ...(reference === undefined ? {} : { approval_reference: reference }) };
}

/**
 * Releases each hold of a closed case still Active on it, recording each outcome as it goes (so closing again after a
 * failure finishes what is left): released, awaiting a second approver (its pending change named), kept because someone else holds the person, or
 * released already by someone else.
 */
export async function releaseCaseHolds(caller: TenantCaller, closed: CaseItem): Promise<CaseItem> {
  let current = closed;
  for (const hold of closed.holds) {
    if (hold.state !== 'Active') continue;
    const outcome = await releaseThroughFourEyes(caller, hold.target, closed.case_ref);
    const changed: CaseHold = { ...hold, ...outcome, released_at: caller.deps.clock.now().toISOString() };
    current = await recordHolds(caller, current, current.holds.map((other) => (other.target === hold.target ? changed : other)));
  }
  return current;
}
