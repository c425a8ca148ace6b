import { describe, expect, it } from 'vitest';
import { compileLexicon, type LexiconPolicy } from './compile.ts';
import { evaluateLexicon, readLexicon } from './evaluate.ts';

/** What each matching term found, as the text's own slices (so offsets are checked exactly). */
function found(terms: string[], text: string, ignore: string[] = []): Record<string, string[]> {
  const policies: LexiconPolicy[] = [{ policy_reference: 'lexicon', kind: 'Lexicon', terms }];
  if (ignore.length > 0) policies.push({ policy_reference: 'ignore', kind: 'Ignore', terms: ignore });
  const hits = evaluateLexicon(compileLexicon(policies), text);
  return Object.fromEntries(hits.map((hit) => [hit.term, hit.matches.map(({ start, end }) => text.slice(start, end))]));
}

describe('lexicon evaluation', () => {
  it('matches whole words case-insensitively, with offsets in the original text', () => {
    const text = 'We GUARANTEE returns; guaranteed? Guarantee!';
    expect(found(['guarantee'], text)).toEqual({ guarantee: ['GUARANTEE', 'Guarantee'] });
    const [hit] = evaluateLexicon(compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: ['guarantee'] }]), text);
    expect(hit).toEqual({ policy_reference: 'p', term: 'guarantee', matches: [{ start: 3, end: 12 }, { start: 34, end: 43 }] });
    expect(found(['guarantee'], 'unguaranteed guaranteeing')).toEqual({});
  });

  it('matches a phrase across any run of spaces, punctuation and line breaks', () => {
    const text = 'Keep this off-the-\n record, OFF THE RECORD. Off, the… record';
    expect(found(['off the record'], text)).toEqual({ 'off the record': ['off-the-\n record', 'OFF THE RECORD', 'Off, the… record'] });
    expect(found(['off the record'], 'off the recorder, off record')).toEqual({});
  });

  it('reads * after the last word as a prefix, and * elsewhere literally', () => {
    expect(found(['guarant*'], 'guarantee, Guaranteed, GUARANT, guard')).toEqual({ 'guarant*': ['guarantee', 'Guaranteed', 'GUARANT'] });
    expect(found(['money back guar*'], 'money back guarantee; money-back guard; money back g')).toEqual({
      'money back guar*': ['money back guarantee', 'money-back guard'],
    });
    expect(found(['guar*antee'], 'guarantee guar antee guar*antee')).toEqual({ 'guar*antee': ['guar*antee'] });
    expect(found(['5*'], '5 stars, 5* rating, 55*, x5')).toEqual({ '5*': ['5', '5', '55'] });
    expect(found(['5 *'], '5 stars, 5* rating, 5 *')).toEqual({ '5 *': ['5*', '5 *'] });
  });

  it('treats regex-like characters as the literal text to find', () => {
    expect(found(['c++'], 'I know C++ and C and c+')).toEqual({ 'c++': ['C++'] });
    expect(found(['$100'], 'pay $100 now, or 100 later, or $ 100')).toEqual({ $100: ['$100', '$ 100'] });
    expect(found(['a.b'], 'a.b a b a-b a. b')).toEqual({ 'a.b': ['a.b', 'a. b'] });
    expect(found(['x|y'], 'x|y x y x||y')).toEqual({ 'x|y': ['x|y'] });
    expect(found(['e-mail'], 'e-mail e mail email')).toEqual({ 'e-mail': ['e-mail'] });
    expect(found(['[secret]'], 'the [secret] and the secret')).toEqual({ '[secret]': ['[secret]'] });
  });

  it('finds A NEAR/n B in either order with at most n words between, marking both parts', () => {
    const terms = ['delete NEAR/2 message'];
    expect(found(terms, 'Delete this message')).toEqual({ [terms[0] as string]: ['Delete', 'message'] });
    expect(found(terms, 'message: please delete')).toEqual({ [terms[0] as string]: ['message', 'delete'] });
    expect(found(terms, 'delete the old message')).toEqual({ [terms[0] as string]: ['delete', 'message'] });
    expect(found(terms, 'delete the very old message')).toEqual({});
    expect(found(['delete NEAR/1 message'], 'delete message')).toEqual({ 'delete NEAR/1 message': ['delete', 'message'] });
    expect(found(['delete NEAR/3 this message'], 'this message, delete it; delete x y z this message')).toEqual({
      'delete NEAR/3 this message': ['this message', 'delete', 'delete', 'this message'],
    });
  });

  it('does not pair a NEAR part with itself or with an overlapping occurrence', () => {
    expect(found(['deal NEAR/2 deal'], 'a deal here')).toEqual({});
    expect(found(['deal NEAR/2 deal'], 'deal or deal')).toEqual({ 'deal NEAR/2 deal': ['deal', 'deal'] });
    expect(found(['big deal NEAR/3 deal'], 'big deal')).toEqual({});
  });

  it('counts A NOT B only when B occurs nowhere in the text', () => {
    expect(found(['whatsapp NOT business'], 'Add me on WhatsApp')).toEqual({ 'whatsapp NOT business': ['WhatsApp'] });
    expect(found(['whatsapp NOT business'], 'WhatsApp… and later: business account')).toEqual({});
    expect(found(['whatsapp NOT whatsapp business'], 'whatsapp business, then whatsapp')).toEqual({});
  });

  it('suppresses lexicon matches inside an ignored span, and only those', () => {
    const text = 'Returns are not a guarantee of future results. I guarantee you 20%.';
    expect(found(['guarantee'], text, ['not a guarantee of future results'])).toEqual({ guarantee: ['guarantee'] });
    expect(found(['guarantee'], 'This is not a guarantee.', ['not a guarantee'])).toEqual({});
    const reading = readLexicon(
      compileLexicon([
        { policy_reference: 'lexicon', kind: 'Lexicon', terms: ['guarantee'] },
        { policy_reference: 'disclaimer', kind: 'Ignore', terms: ['not a guarantee'] },
      ]),
      'This is not a guarantee.',
    );
    expect(reading.ignored).toEqual([{ policy_reference: 'disclaimer', term: 'not a guarantee', matches: [{ start: 8, end: 23 }] }]);
    expect(reading.suppressed).toEqual([{ policy_reference: 'lexicon', term: 'guarantee', matches: [{ start: 14, end: 23 }] }]);
    expect(reading.hits).toEqual([]);
  });

  it('treats ignored text as absent for NEAR and NOT too', () => {
    const disclaimer = ['past performance is no guarantee'];
    expect(found(['guarantee NEAR/3 returns'], 'Returns: past performance is no guarantee.', disclaimer)).toEqual({});
    expect(found(['returns NOT guarantee'], 'Great returns. Past performance is no guarantee.', disclaimer)).toEqual({ 'returns NOT guarantee': ['returns'] });
    expect(found(['returns'], 'returns', ['returns NEAR/2 guaranteed'])).toEqual({ returns: ['returns'] });
    expect(found(['fund'], 'returns of this fund are not guaranteed', ['returns NEAR/5 guaranteed'])).toEqual({});
  });

  it('reads accents, apostrophes, emoji and scripts without spaces', () => {
    expect(found(['café'], 'CAFÉ, cafe\u0301, cafe, cafés')).toEqual({ café: ['CAFÉ', 'cafe\u0301'] });
    expect(found(["don't tell"], 'Don’t tell anyone, dont tell')).toEqual({ "don't tell": ['Don’t tell'] });
    expect(found(['guarantee'], "🚀guarantee🚀 and 'guarantee' and «guarantee»")).toEqual({ guarantee: ['guarantee', 'guarantee', 'guarantee'] });
    expect(found(['🚀 moon'], 'to the 🚀moon, 🚀 🌕 moon, moon')).toEqual({ '🚀 moon': ['🚀moon'] });
    expect(found(['保证'], '我保证你赚钱, 保，证')).toEqual({ 保证: ['保证'] });
    expect(found(['straße'], 'STRASSE, Straße')).toEqual({ straße: ['Straße'] });
  });

  it('lists one hit per policy and term, in the order given, and applies only the chosen policies', () => {
    const compiled = compileLexicon([
      { policy_reference: 'b', kind: 'Lexicon', terms: ['whatsapp', 'guarantee', 'guarantee'] },
      { policy_reference: 'a', kind: 'Lexicon', terms: ['guarantee'] },
      { policy_reference: 'quiet', kind: 'Ignore', terms: ['whatsapp business'] },
    ]);
    const text = 'guarantee on whatsapp business and whatsapp';
    expect(evaluateLexicon(compiled, text).map((hit) => `${hit.policy_reference}/${hit.term}/${hit.matches.length}`)).toEqual([
      'b/whatsapp/1',
      'b/guarantee/1',
      'a/guarantee/1',
    ]);
    expect(evaluateLexicon(compiled, text, { policies: new Set(['a']) }).map((hit) => hit.policy_reference)).toEqual(['a']);
    expect(evaluateLexicon(compiled, text, { policies: new Set(['b']) }).find((hit) => hit.term === 'whatsapp')?.matches).toHaveLength(2);
  });

  it('compiles one phrase once, however many terms and policies use it', () => {
    const compiled = compileLexicon([
      { policy_reference: 'a', kind: 'Lexicon', terms: ['guarantee', 'Guarantee NEAR/3 returns', 'guarantee NOT disclaimer'] },
      { policy_reference: 'b', kind: 'Lexicon', terms: ['GUARANTEE', 'returns'] },
    ]);
    expect(compiled.terms).toHaveLength(5);
    expect(compiled.phrases.map((phrase) => phrase.words.join(' '))).toEqual(['guarantee', 'returns', 'disclaimer']);
    expect(evaluateLexicon(compiled, 'Guaranteed? No: guarantee.').map((hit) => `${hit.policy_reference}/${hit.term}`)).toEqual([
      'a/guarantee',
      'a/guarantee NOT disclaimer',
      'b/GUARANTEE',
    ]);
  });

  it('leaves out a stored term it cannot use instead of failing the whole text', () => {
    const compiled = compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: ['(a|b)+', 'ok'] }]);
    expect(compiled.refused).toEqual([{ policy_reference: 'p', term: '(a|b)+', problem: expect.stringMatching(/parentheses/) }]);
    expect(evaluateLexicon(compiled, 'ok (a|b)+').map((hit) => hit.term)).toEqual(['ok']);
  });

  it('finds nothing in empty or wordless text', () => {
    const compiled = compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: ['guarantee', 'c++'] }]);
    expect(evaluateLexicon(compiled, '')).toEqual([]);
    expect(evaluateLexicon(compiled, '!!! ++ 🚀')).toEqual([]);
    expect(evaluateLexicon(compileLexicon([]), 'guarantee')).toEqual([]);
  });
});
