import { describe, expect, it } from 'vitest';
import { compileTester, DRAFT_REFERENCE, testerPieces, testerPolicies, testText } from './tester-model.ts';

const others = [
  { policy_reference: 'disclaimer', kind: 'Ignore' as const, is_enabled: true, terms: ['this is not a guarantee'] },
  { policy_reference: 'old-disclaimer', kind: 'Ignore' as const, is_enabled: false, terms: ['guarantee'] },
  { policy_reference: 'off-channel', kind: 'Lexicon' as const, is_enabled: true, terms: ['whatsapp'] },
  { policy_reference: 'calls', kind: 'Sampling' as const, is_enabled: true, terms: [] },
];

const joined = (pieces: { text: string }[]) => pieces.map((piece) => piece.text).join('');

describe('the term tester', () => {
  it('tests a lexicon draft with the enabled ignore policies only', () => {
    const policies = testerPolicies({ draft: { reference: '', kind: 'Lexicon', terms: ['guarantee'] }, others });
    expect(policies.map((policy) => [policy.policy_reference, policy.kind])).toEqual([
      [DRAFT_REFERENCE, 'Lexicon'],
      ['disclaimer', 'Ignore'],
    ]);
  });

  it('tests an ignore draft with the lexicons it would silence, leaving out its own stored version', () => {
    const policies = testerPolicies({ draft: { reference: 'disclaimer', kind: 'Ignore', terms: ['not a guarantee'] }, others });
    expect(policies.map((policy) => policy.policy_reference)).toEqual(['disclaimer', 'off-channel']);
  });

  it('highlights matches live, and a disclaimer suppresses the match inside it', () => {
    const text = 'I guarantee it. This is not a guarantee of returns.';
    const result = testText(compileTester({ draft: { reference: 'promises', kind: 'Lexicon', terms: ['guarant*'] }, others }), text);
    expect(result.pieces).toEqual([
      { text: 'I ', kind: 'plain' },
      { text: 'guarantee', kind: 'hit' },
      { text: ' it. ', kind: 'plain' },
      { text: 'This is not a ', kind: 'ignored' },
      { text: 'guarantee', kind: 'suppressed' },
      { text: ' of returns.', kind: 'plain' },
    ]);
    expect(joined(result.pieces)).toBe(text);
    expect(result.tallies).toEqual([{ policy_reference: 'promises', term: 'guarant*', raised: 1, suppressed: 1 }]);
    expect(result.ignoredBy).toEqual([{ policy_reference: 'disclaimer', term: 'this is not a guarantee', count: 1 }]);
  });

  it('shows what an ignore draft leaves standing of the other lexicons', () => {
    const text = 'Sent from WhatsApp. Call me on whatsapp';
    const result = testText(compileTester({ draft: { reference: 'signature', kind: 'Ignore', terms: ['sent from whatsapp'] }, others }), text);
    expect(result.pieces.filter((piece) => piece.kind !== 'plain')).toEqual([
      { text: 'Sent from ', kind: 'ignored' },
      { text: 'WhatsApp', kind: 'suppressed' },
      { text: 'whatsapp', kind: 'hit' },
    ]);
    expect(result.tallies).toEqual([{ policy_reference: 'off-channel', term: 'whatsapp', raised: 1, suppressed: 1 }]);
  });

  it('never fails on text or offsets out of range, and gives back the text exactly', () => {
    const hit = (start: number, end: number) => [{ policy_reference: 'p', term: 't', matches: [{ start, end }] }];
    const pieces = testerPieces('abc😀def', { hit: hit(2, 5), suppressed: hit(-4, 1), ignored: hit(6, 999) });
    expect(joined(pieces)).toBe('abc😀def');
    expect(pieces).toEqual([
      { text: 'a', kind: 'suppressed' },
      { text: 'b', kind: 'plain' },
      { text: 'c😀', kind: 'hit' },
      { text: 'd', kind: 'plain' },
      { text: 'ef', kind: 'ignored' },
    ]);
    expect(testText(compileTester({ draft: { reference: 'x', kind: 'Lexicon', terms: ['(bad', 'a'.repeat(500)] }, others: [] }), 'a (bad').pieces).toEqual([{ text: 'a (bad', kind: 'plain' }]);
  });
});
