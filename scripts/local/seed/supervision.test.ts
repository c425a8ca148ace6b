import { describe, expect, it } from 'vitest';
import { compileLexicon, readLexicon } from '#shared/supervision/lexicon/index.ts';
import { demoRecordings } from '../../device/recorder.ts';
import { fleetPlacements } from './fleet.ts';
import {
  CALL_SAMPLING_POLICY,
  CONDUCT_RISK_POLICY,
  DEMO_DISCLAIMER,
  DEMO_SUPERVISED_RECORDINGS,
  DEMO_SUPERVISION_POLICIES,
  DISCLAIMER_POLICY,
} from './supervision.ts';

/**
 * The demo supervision data read by the real lexicon engine (what processing runs): each seeded recording raises what
 * the demo promises, the disclaimer raises nothing, and every conduct-risk term has work in the queue.
 */
const lexicon = compileLexicon(
  DEMO_SUPERVISION_POLICIES.filter((policy) => policy.request.kind !== 'Sampling').map((policy) => ({
    policy_reference: policy.policy_reference,
    kind: policy.request.kind as 'Lexicon' | 'Ignore',
    terms: policy.request.terms,
  })),
);
const termsFound = (text: string) => readLexicon(lexicon, text).hits.map((hit) => `${hit.policy_reference}: ${hit.term}`);
const policy = (reference: string) => DEMO_SUPERVISION_POLICIES.find((candidate) => candidate.policy_reference === reference)?.request;

describe('demo supervision', () => {
  it('seeds a lexicon policy with a word, phrases, a prefix and a NEAR term, an Ignore policy and 10 % call sampling', () => {
    expect(lexicon.refused).toEqual([]);
    expect(policy(CONDUCT_RISK_POLICY)).toMatchObject({ kind: 'Lexicon', is_enabled: true });
    expect(policy(CONDUCT_RISK_POLICY)?.terms).toEqual(expect.arrayContaining(['guarantee', 'off the record', 'delete this', 'whatsapp']));
    expect(policy(CONDUCT_RISK_POLICY)?.terms.some((term) => term.endsWith('*'))).toBe(true);
    expect(policy(CONDUCT_RISK_POLICY)?.terms.some((term) => / NEAR\/\d+ /.test(term))).toBe(true);
    expect(policy(DISCLAIMER_POLICY)?.kind).toBe('Ignore');
    expect(policy(CALL_SAMPLING_POLICY)).toMatchObject({ kind: 'Sampling', sample_percent: 10, sample_minimum: 1, scope: { payload_types: ['Call'] } });
  });

  it('raises each seeded message for the terms it holds; the disclaimer alone raises nothing', () => {
    expect(DEMO_SUPERVISED_RECORDINGS.map((recording) => termsFound(recording.text))).toEqual([
      ['conduct-risk: guarantee'],
      ['conduct-risk: off the record'],
      [],
      ['conduct-risk: delete this'],
      ['conduct-risk: whatsapp'],
      ['conduct-risk: guarantee'],
      ['conduct-risk: compensat*'],
      ['conduct-risk: keep NEAR/3 between us'],
      ['conduct-risk: whatsapp'],
    ]);
  });

  it('suppresses the disclaimer\'s "guarantee" but not a promise after it', () => {
    const alone = readLexicon(lexicon, `Returns were 8%. ${DEMO_DISCLAIMER}`);
    expect(alone.hits).toEqual([]);
    expect(alone.suppressed.map((hit) => hit.term)).toEqual(['guarantee']);
    const text = `${DEMO_DISCLAIMER} Honestly though, I guarantee you will be pleased.`;
    const [promise] = readLexicon(lexicon, text).hits;
    expect(promise?.matches.map((match) => text.slice(match.start, match.end))).toEqual(['guarantee']);
    expect(promise?.matches[0]?.start).toBeGreaterThan(DEMO_DISCLAIMER.length);
  });

  it('gives every conduct-risk term at least one item, from phones of the demo fleet, with meta the pipeline accepts', () => {
    const found = new Set(DEMO_SUPERVISED_RECORDINGS.flatMap((recording) => termsFound(recording.text)));
    for (const term of policy(CONDUCT_RISK_POLICY)?.terms ?? []) expect(found, term).toContain(`conduct-risk: ${term}`);
    const fleetPhones = new Set(fleetPlacements().map((placement) => `demo-${placement.device_user_reference.replace(/^du-/, '')}`));
    for (const recording of DEMO_SUPERVISED_RECORDINGS) {
      expect(fleetPhones, recording.phone).toContain(recording.phone);
      const options = recording.type === 'SMS' ? { text: recording.text } : { notes: recording.text };
      expect(demoRecordings(recording.type, options), recording.text).toHaveLength(1);
    }
  });
});
