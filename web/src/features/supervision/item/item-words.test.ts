import { describe, expect, it } from 'vitest';
import { hitSummary, isOwnCommunication, personOf } from './item-words.ts';
import { actionsFor } from './item-actions.tsx';

describe('the review item in words', () => {
  it('names the person by name, the reference only when no name was kept', () => {
    expect(personOf({ device_user_name: 'Alice Trader', device_user_reference: 'du-alice' })).toBe('Alice Trader');
    expect(personOf({ device_user_reference: 'du-alice' })).toBe('du-alice');
    expect(personOf({})).toBe('Unknown person');
  });

  it('sums up the hits per policy: its terms, or sampled', () => {
    const at = '2026-11-01T00:00:00Z';
    expect(
      hitSummary([
        { policy_reference: 'promises', kind: 'Lexicon', term: 'guarantee', matches: [], raised_at: at },
        { policy_reference: 'promises', kind: 'Lexicon', term: 'off the record', matches: [], raised_at: at },
        { policy_reference: 'promises', kind: 'Lexicon', term: 'guarantee', field: 'notes', matches: [], raised_at: at },
        { policy_reference: 'calls-5', kind: 'Sampling', matches: [], sample_value: 0.02, raised_at: at },
      ]),
    ).toBe('promises: “guarantee”, “off the record”; calls-5: sampled');
  });
});

describe('own communications', () => {
  it('are the supervised person’s with the signed-in e-mail, compared case-insensitively', () => {
    expect(isOwnCommunication('Reviewer@Demo.Test', 'reviewer@demo.test')).toBe(true);
    expect(isOwnCommunication(' reviewer@demo.test ', 'REVIEWER@demo.test')).toBe(true);
    expect(isOwnCommunication('alice@demo.test', 'reviewer@demo.test')).toBe(false);
  });

  it('are not assumed when either address is unknown (the server still refuses)', () => {
    expect(isOwnCommunication(undefined, 'reviewer@demo.test')).toBe(false);
    expect(isOwnCommunication('reviewer@demo.test', undefined)).toBe(false);
    expect(isOwnCommunication('', '')).toBe(false);
  });
});

describe('the acts each state offers', () => {
  it('offers claim, assign, escalate and close on an open item; reopen only on a closed one', () => {
    expect(actionsFor({ state: 'Open' })).toEqual({ claim: true, release: false, assign: true, escalate: true, close: true, reopen: false });
    expect(actionsFor({ state: 'Claimed', assignee: 'r@demo.test' })).toEqual({ claim: false, release: true, assign: true, escalate: true, close: true, reopen: false });
    expect(actionsFor({ state: 'Escalated', assignee: 'r@demo.test' })).toEqual({ claim: true, release: true, assign: true, escalate: false, close: true, reopen: false });
    expect(actionsFor({ state: 'Closed' })).toEqual({ claim: false, release: false, assign: false, escalate: false, close: false, reopen: true });
  });
});
