import { describe, expect, it } from 'vitest';
import type { SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import { evaluateRecording, MATCHES_PER_HIT_MAX, MATCHES_PER_RECORDING_MAX, type SupervisedRecording } from './evaluate-recording.ts';
import { policySetOf } from './policy-set.ts';

const AT = '2026-03-01T12:00:00.000Z';
const everyone = { group_conditions: [], device_user_references: [], payload_types: ['SMS', 'MMS', 'RCS', 'Call', 'Interview', 'Photo', 'Video'] as SupervisionPolicyItem['scope']['payload_types'] };

function policy(reference: string, fields: Partial<SupervisionPolicyItem>): SupervisionPolicyItem {
  return { policy_reference: reference, kind: 'Lexicon', is_enabled: true, scope: everyone, terms: [], sample_minimum: 0, review_days: 7, sampling_seed: `seed-of-${reference}`, policy_version: 1, ...fields };
}

const sms = (reference = '01JSMS0000000000000000000A'): SupervisedRecording => ({ payload_reference: reference, payload_type: 'SMS', payload_time: AT, device_user_reference: 'du-1', group: 'north' });
const north = { name: 'north', tags: [{ tag_key: 'desk', tag_value: 'equities' }] };
const text = (value: string) => ({ field: 'text' as const, text: value });

describe('evaluating a recording', () => {
  it('raises a hit per matching term with its offsets in the text and never the text itself', () => {
    const set = policySetOf([policy('promises', { terms: ['guarantee', 'risk free'], review_days: 5 })]);
    const message = 'We guarantee it: risk-free. GUARANTEE!';
    const found = evaluateRecording(set, { reference: sms(), group: north, text: text(message) }, AT);
    expect(found.reviewDays).toBe(5);
    expect(found.hits).toEqual([
      { policy_reference: 'promises', kind: 'Lexicon', term: 'guarantee', field: 'text', matches: [{ start: 3, end: 12 }, { start: 28, end: 37 }], raised_at: AT },
      { policy_reference: 'promises', kind: 'Lexicon', term: 'risk free', field: 'text', matches: [{ start: 17, end: 26 }], raised_at: AT },
    ]);
    expect(message.slice(3, 12)).toBe('guarantee');
    expect(JSON.stringify(found)).not.toContain('We guarantee');
  });

  it('suppresses a match inside a span an Ignore policy marks: a disclaimer raises nothing', () => {
    const set = policySetOf([policy('promises', { terms: ['guarantee'] }), policy('disclaimers', { kind: 'Ignore', terms: ['not a guarantee'] })]);
    expect(evaluateRecording(set, { reference: sms(), group: north, text: text('Past returns are not a guarantee of future results') }, AT).hits).toEqual([]);
    // Outside the disclaimer the same word still raises.
    const both = evaluateRecording(set, { reference: sms(), group: north, text: text('I guarantee it. Past returns are not a guarantee.') }, AT);
    expect(both.hits.map((hit) => hit.matches)).toEqual([[{ start: 2, end: 11 }]]);
  });

  it('applies only the policies whose scope covers the recording (type, person, group conditions), Ignore ones too', () => {
    const callsOnly = policy('calls', { terms: ['guarantee'], scope: { ...everyone, payload_types: ['Call'] } });
    const southOnly = policy('south', { terms: ['guarantee'], scope: { ...everyone, group_conditions: [{ names_matching: 'south', is_denied: false, is_regex: false }] } });
    const equities = policy('equities', { terms: ['guarantee'], scope: { ...everyone, group_conditions: [{ keys_matching: 'desk', values_matching: 'equ*', is_denied: false, is_regex: false }] } });
    const named = policy('named', { terms: ['guarantee'], scope: { ...everyone, device_user_references: ['du-1'] } });
    const otherPerson = policy('other-person', { terms: ['guarantee'], scope: { ...everyone, device_user_references: ['du-2'] } });
    const southIgnore = policy('south-ignore', { kind: 'Ignore', terms: ['guarantee'], scope: { ...everyone, group_conditions: [{ names_matching: 'south', is_denied: false, is_regex: false }] } });
    const set = policySetOf([callsOnly, southOnly, equities, named, otherPerson, southIgnore]);
    const found = evaluateRecording(set, { reference: sms(), group: north, text: text('guarantee') }, AT);
    expect(found.hits.map((hit) => hit.policy_reference).sort()).toEqual(['equities', 'named']);
  });

  it('keeps the first offsets of a term matching thousands of times, so the item stays writable, and every hit its first', () => {
    const terms = Array.from({ length: 40 }, (_, index) => `w${index}`);
    const set = policySetOf([policy('common', { terms })]);
    const message = Array.from({ length: 40 * 300 }, (_, index) => `w${index % 40}`).join(' ');
    const found = evaluateRecording(set, { reference: sms(), group: north, text: text(message) }, AT);
    expect(found.hits.length).toBe(40);
    expect(found.hits[0]!.matches.length).toBe(MATCHES_PER_HIT_MAX);
    expect(found.hits[0]!.matches[0]).toEqual({ start: 0, end: 2 });
    expect(found.hits.reduce((total, hit) => total + hit.matches.length, 0)).toBeLessThanOrEqual(MATCHES_PER_RECORDING_MAX + 40);
    expect(found.hits.every((hit) => hit.matches.length >= 1)).toBe(true);
    expect(JSON.stringify(found).length).toBeLessThan(100_000);
  });

  it('leaves out disabled policies and a recording without text', () => {
    const set = policySetOf([policy('off', { terms: ['guarantee'], is_enabled: false })]);
    expect(evaluateRecording(set, { reference: sms(), group: north, text: text('guarantee') }, AT).hits).toEqual([]);
    const on = policySetOf([policy('on', { terms: ['guarantee'] })]);
    expect(evaluateRecording(on, { reference: sms(), group: north, text: undefined }, AT)).toEqual({ hits: [], reviewDays: undefined });
  });

  it('samples the configured share of 10,000 recordings within 1 point, and the same ones on a re-run', () => {
    const sampling = policy('one-in-ten', { kind: 'Sampling', sample_percent: 10, review_days: 3, sampling_seed: 'f00d'.repeat(16) });
    const set = policySetOf([sampling]);
    const chosen = (run: number) => {
      const picked: string[] = [];
      for (let index = 0; index < 10_000; index += 1) {
        const reference = `01JCALL${String(index).padStart(19, '0')}`;
        const found = evaluateRecording(set, { reference: { payload_reference: reference, payload_type: 'Call', payload_time: AT }, group: { name: '', tags: [] }, text: undefined }, `${AT}#${run}`);
        if (found.hits.length > 0) {
          expect(found.reviewDays).toBe(3);
          expect(found.hits[0]).toMatchObject({ kind: 'Sampling', policy_reference: 'one-in-ten', matches: [] });
          expect(found.hits[0]!.sample_value).toBeLessThan(0.1);
          picked.push(reference);
        }
      }
      return picked;
    };
    const first = chosen(1);
    // Binomial(10,000, 0.1): standard deviation 30; 1 point (100) is over 3 standard deviations.
    expect(Math.abs(first.length - 1000)).toBeLessThanOrEqual(100);
    expect(chosen(2)).toEqual(first);
    // A new seed draws another sample.
    const reseeded = policySetOf([{ ...sampling, sampling_seed: 'beef'.repeat(16) }]);
    const other = Array.from({ length: 10_000 }, (_, index) => `01JCALL${String(index).padStart(19, '0')}`).filter(
      (reference) => evaluateRecording(reseeded, { reference: { payload_reference: reference, payload_type: 'Call', payload_time: AT }, group: { name: '', tags: [] }, text: undefined }, AT).hits.length > 0,
    );
    expect(other).not.toEqual(first);
  });

  it('samples only the types sampling reads, and takes the smallest review days of the policies that hit', () => {
    const all = policy('all', { kind: 'Sampling', sample_percent: 100, review_days: 9 });
    const lexicon = policy('words', { terms: ['guarantee'], review_days: 2 });
    const set = policySetOf([all, lexicon]);
    expect(evaluateRecording(set, { reference: sms(), group: north, text: text('no words here') }, AT).hits).toEqual([]);
    const interview = { ...sms(), payload_type: 'Interview' as const };
    const found = evaluateRecording(set, { reference: interview, group: north, text: { field: 'notes', text: 'a guarantee' } }, AT);
    expect(found.hits.map((hit) => [hit.policy_reference, hit.kind, hit.field])).toEqual([
      ['words', 'Lexicon', 'notes'],
      ['all', 'Sampling', undefined],
    ]);
    expect(found.reviewDays).toBe(2);
  });
});
