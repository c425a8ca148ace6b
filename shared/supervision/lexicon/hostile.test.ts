import { describe, expect, it } from 'vitest';
import { compileLexicon } from './compile.ts';
import { evaluateLexicon, readLexicon } from './evaluate.ts';
import { termProblem } from './term-syntax.ts';

/**
 * A thousand distinct terms over the one word "a": phrases of 1 to 10 words, their prefix, NOT and NEAR forms (40,
 * each matching all over a text of a's), and 960 that differ from "a a" only in the symbols they write, which must
 * cost look-ups on the text's own symbols, not one check per term at each of the 10,000 places.
 */
function thousandTermsOverA(): string[] {
  const terms = new Set<string>();
  for (let words = 1; words <= 10; words += 1) {
    const phrase = Array.from({ length: words }, () => 'a').join(' ');
    terms.add(phrase);
    terms.add(`${phrase}*`);
    terms.add(`${phrase} NOT b`);
    terms.add(`a NEAR/${words} ${phrase}`);
  }
  const symbols = ['.', '+', '-', '/', '#', '$', '%', '&', '=', '~'];
  for (let n = 0; terms.size < 1000; n += 1) {
    const [x, y, z] = [symbols[n % 10], symbols[Math.floor(n / 10) % 10], symbols[Math.floor(n / 100) % 10]];
    terms.add(`${z}a${x}a${y}`);
  }
  return [...terms];
}

describe('lexicon engine under hostile input', () => {
  it('refuses or reads literally regex-like, nested, empty and huge terms, and never throws', () => {
    const terms = ['', ' ', '.*', '(a|b)+', '\\', '\\d+', '[a-z]+', '^guarantee$', 'a{1000}', '(?=x)', 'a'.repeat(10_000), 'x NEAR/2 y NEAR/2 z', '((a))', 'a**', '*a', '?', 'a?b'];
    for (const term of terms) expect(() => termProblem(term)).not.toThrow();
    const compiled = compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms }]);
    expect(compiled.refused.map((refused) => refused.term)).toEqual(['', ' ', '.*', '(a|b)+', '\\', 'a'.repeat(10_000), 'x NEAR/2 y NEAR/2 z', '((a))', '?', '(?=x)'].sort((x, y) => terms.indexOf(x) - terms.indexOf(y)));
    // What remains is read literally: `\d+` finds "\d+" and not digits, `[a-z]+` the brackets themselves.
    const text = 'digits 123, \\d+ and [a-z]+ and ^guarantee$ and a{1000} and a?b and aaa';
    const hits = evaluateLexicon(compiled, text);
    expect(Object.fromEntries(hits.map((hit) => [hit.term, hit.matches.map(({ start, end }) => text.slice(start, end))]))).toEqual({
      '\\d+': ['\\d+'],
      '[a-z]+': ['[a-z]+'],
      '^guarantee$': ['^guarantee$'],
      'a{1000}': ['a{1000}'],
      'a?b': ['a?b'],
    });
  });

  it('reads 10,000 a\'s against 1,000 terms quickly, with every match accounted for', () => {
    const terms = thousandTermsOverA();
    expect(terms).toHaveLength(1000);
    expect(terms.filter((term) => termProblem(term) !== undefined)).toEqual([]);
    const compiled = compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms }]);
    // CPU time of this worker: on a shared machine, waiting for a core is not the engine's time.
    const cpuMs = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;
    const started = cpuMs();
    const hits = evaluateLexicon(compiled, 'a '.repeat(10_000));
    const oneWord = evaluateLexicon(compiled, 'a'.repeat(10_000));
    const symbolic = evaluateLexicon(compiled, '$a.a+ '.repeat(2_000));
    const elapsed = cpuMs() - started;
    const count = (term: string) => hits.find((hit) => hit.term === term)?.matches.length;
    // "a" x k occurs 10,001 - k times, its prefix and NOT forms as often; NEAR/k marks every "a".
    expect(count('a a a')).toBe(9_998);
    expect(count('a a a*')).toBe(9_998);
    expect(count('a a a NOT b')).toBe(9_998);
    expect(count('a NEAR/1 a')).toBe(10_000);
    expect(hits).toHaveLength(40);
    expect(oneWord.map((hit) => hit.term)).toEqual(['a*']);
    const symbolTerms = new Set(terms.slice(40));
    expect(symbolic.filter((hit) => symbolTerms.has(hit.term)).map((hit) => [hit.term, hit.matches.length])).toEqual([['$a.a+', 2_000]]);
    // Generous: a backtracking regex would not finish at all; the automaton reads the 30,000 words in well under 1 s.
    expect(elapsed).toBeLessThan(3_000);
  });

  it('reads lone surrogates, control characters and a megabyte of text without throwing', () => {
    const compiled = compileLexicon([
      { policy_reference: 'p', kind: 'Lexicon', terms: ['guarantee', 'x NEAR/50 y', 'z NOT q', '🚀 moon'] },
      { policy_reference: 'i', kind: 'Ignore', terms: ['no guarantee'] },
    ]);
    for (const text of ['\uD800guarantee\uDC00', '\u0000guarantee\u0007', '\u202Eguarantee', `${'🚀'.repeat(1000)} moon`, 'x '.repeat(500_000)]) {
      expect(() => readLexicon(compiled, text)).not.toThrow();
    }
    expect(evaluateLexicon(compiled, '\uD800guarantee\uDC00')[0]?.matches).toEqual([{ start: 1, end: 10 }]);
  });
});
