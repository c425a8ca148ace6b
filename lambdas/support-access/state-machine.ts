import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { ConflictError } from '#core/errors.ts';

/**
 * What may happen to a support-access request, and who may make it happen. The spec names the states only
 * ("Transitions not shown"); this table is our decision (see docs/decisions when written up).
 *
 * | event    | by     | from      | to       | notes                                                               |
 * |----------|--------|-----------|----------|---------------------------------------------------------------------|
 * | request  | staff  | (none)    | pending  | POST; the role exists in the tenant; expiry in the future, ≤ 30 days |
 * | withdraw | staff  | pending   | canceled | DELETE before anyone decided                                        |
 * | withdraw | staff  | approved  | revoked  | DELETE ends granted access early                                    |
 * | approve  | tenant | pending   | approved | PUT; approval_expiry ≤ requested_expiry (default), in the future     |
 * | reject   | tenant | pending   | rejected | PUT; rejection_reason required                                      |
 * | revoke   | tenant | approved  | revoked  | PUT; an optional reason is kept in rejection_reason                 |
 * | expire   | job    | pending   | expired  | requested_expiry has passed: nobody decided in time                 |
 * | expire   | job    | approved  | expired  | approval_expiry has passed                                          |
 *
 * Every other (state, event) pair is refused with 409 naming the current state. canceled, rejected, revoked and
 * expired are final: a new period of access is a new request, so the record of each grant stays as it was.
 */
export type SupportAccessEvent = 'withdraw' | 'approve' | 'reject' | 'revoke' | 'expire';

export const SUPPORT_ACCESS_TRANSITIONS: Readonly<
  Record<SupportAccessEvent, Partial<Readonly<Record<SupportAccessApprovalState, SupportAccessApprovalState>>>>
> = {
  withdraw: { pending: 'canceled', approved: 'revoked' },
  approve: { pending: 'approved' },
  reject: { pending: 'rejected' },
  revoke: { approved: 'revoked' },
  expire: { pending: 'expired', approved: 'expired' },
};

/** States no event leaves. */
export const FINAL_STATES: readonly SupportAccessApprovalState[] = ['canceled', 'rejected', 'revoked', 'expired'];

/** The state `event` leads to from `current`, or undefined when the table has no such transition. */
export function nextState(current: SupportAccessApprovalState, event: SupportAccessEvent): SupportAccessApprovalState | undefined {
  const row = SUPPORT_ACCESS_TRANSITIONS[event];
  // Own properties only: a stored state like `__proto__` must not find Object.prototype.
  return Object.hasOwn(row, current) ? row[current] : undefined;
}

/** A 409 that names the request's current state, so the caller learns why (e.g. someone approved it first). */
export class SupportAccessStateConflict extends ConflictError {
  override readonly name = 'SupportAccessStateConflict';
  constructor(
    readonly current: SupportAccessApprovalState,
    readonly event: SupportAccessEvent,
  ) {
    super(`approval_state: The request is ${current}; it cannot be ${PAST_TENSE[event]}`);
  }
}

const PAST_TENSE: Record<SupportAccessEvent, string> = {
  withdraw: 'canceled or revoked',
  approve: 'approved',
  reject: 'rejected',
  revoke: 'revoked',
  expire: 'expired',
};

/** Like nextState, but throws SupportAccessStateConflict (409) when the transition is not allowed. */
export function transition(current: SupportAccessApprovalState, event: SupportAccessEvent): SupportAccessApprovalState {
  const next = nextState(current, event);
  if (next === undefined) throw new SupportAccessStateConflict(current, event);
  return next;
}
