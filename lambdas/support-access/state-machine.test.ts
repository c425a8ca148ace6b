import { describe, expect, it } from 'vitest';
import { SUPPORT_ACCESS_APPROVAL_STATES, type SupportAccessApprovalState } from '#shared/constants/account.ts';
import { toErrorResponse } from '#core/errors.ts';
import {
  FINAL_STATES,
  nextState,
  SupportAccessStateConflict,
  transition,
  type SupportAccessEvent,
} from './state-machine.ts';

const EVENTS: readonly SupportAccessEvent[] = ['withdraw', 'approve', 'reject', 'revoke', 'expire'];

/** The decided table, spelled out independently of the module's, so a change to either is caught. */
const ALLOWED: ReadonlyArray<[SupportAccessApprovalState, SupportAccessEvent, SupportAccessApprovalState]> = [
  ['pending', 'withdraw', 'canceled'],
  ['approved', 'withdraw', 'revoked'],
  ['pending', 'approve', 'approved'],
  ['pending', 'reject', 'rejected'],
  ['approved', 'revoke', 'revoked'],
  ['pending', 'expire', 'expired'],
  ['approved', 'expire', 'expired'],
];

const allowed = (from: SupportAccessApprovalState, event: SupportAccessEvent) =>
  ALLOWED.find(([state, on]) => state === from && on === event)?.[2];

describe('support-access state machine', () => {
  for (const from of SUPPORT_ACCESS_APPROVAL_STATES) {
    for (const event of EVENTS) {
      const to = allowed(from, event);
      if (to !== undefined) {
        it(`${from} --${event}--> ${to}`, () => {
          expect(nextState(from, event)).toBe(to);
          expect(transition(from, event)).toBe(to);
        });
      } else {
        it(`refuses ${event} from ${from} with a 409 naming ${from}`, () => {
          expect(nextState(from, event)).toBeUndefined();
          let thrown: unknown;
          try {
            transition(from, event);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(SupportAccessStateConflict);
          const { status, body } = toErrorResponse(thrown);
          expect(status).toBe(409);
          expect(body.message).toMatch(new RegExp(`^approval_state: The request is ${from}; `));
        });
      }
    }
  }

  it('has final states that no event leaves, and every other state leaves', () => {
    for (const state of SUPPORT_ACCESS_APPROVAL_STATES) {
      const leaves = EVENTS.some((event) => nextState(state, event) !== undefined);
      expect(leaves, state).toBe(!FINAL_STATES.includes(state));
    }
  });

  it('never leads back to pending (a request is asked once)', () => {
    for (const state of SUPPORT_ACCESS_APPROVAL_STATES) {
      for (const event of EVENTS) expect(nextState(state, event)).not.toBe('pending');
    }
  });

  it('refuses a state name that is not in the table, e.g. from a corrupt item', () => {
    expect(nextState('__proto__' as SupportAccessApprovalState, 'approve')).toBeUndefined();
    expect(() => transition('constructor' as SupportAccessApprovalState, 'expire')).toThrow(SupportAccessStateConflict);
  });
});
