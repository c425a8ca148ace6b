import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLexicon } from './compile.ts';
import { evaluateLexicon } from './evaluate.ts';
import { wordsOf } from './words.ts';

/**
 * The automaton against the obvious quadratic reading of the same terms: every start word, every term, compared word
 * by word. Few, overlapping words ("a", "ab", "a a b"…) so fail links, nested phrases and prefixes all get exercised.
 */
const VOCABULARY = ['a', 'ab', 'abc', 'b', 'ba'];
const SEPARATORS = [' ', '  ', ', ', '-', '\n', '. '];

const word = fc.constantFrom(...VOCABULARY);
const phrase = fc.record({ words: fc.array(word, { minLength: 1, maxLength: 4 }), prefix: fc.boolean() });
const text = fc
  .array(fc.tuple(word, fc.constantFrom(...SEPARATORS)), { maxLength: 40 })
  .map((parts) => parts.map(([w, separator]) => `${w}${separator}`).join(''));

type TermShape = { words: string[]; prefix: boolean };
const written = ({ words, prefix }: TermShape) => `${words.join(' ')}${prefix ? '*' : ''}`;

/** Where each occurrence of the phrase starts and ends, in words. */
function naiveOccurrences(shape: TermShape, forms: string[]): { first: number; last: number }[] {
  const occurrences: { first: number; last: number }[] = [];
  for (let first = 0; first + shape.words.length <= forms.length; first += 1) {
    const fits = shape.words.every((w, k) => {
      const form = forms[first + k] as string;
      return shape.prefix && k === shape.words.length - 1 ? form.startsWith(w) : form === w;
    });
    if (fits) occurrences.push({ first, last: first + shape.words.length - 1 });
  }
  return occurrences;
}

describe('lexicon automaton against a naive reading', () => {
  it('finds exactly the phrase and prefix occurrences a word-by-word comparison finds', () => {
    fc.assert(
      fc.property(fc.uniqueArray(phrase, { maxLength: 12, selector: written }), text, (shapes, sample) => {
        const words = wordsOf(sample);
        const expected = shapes
          .map((shape) => ({
            term: written(shape),
            matches: naiveOccurrences(shape, words.forms).map(({ first, last }) => ({ start: words.starts[first], end: words.ends[last] })),
          }))
          .filter((hit) => hit.matches.length > 0);
        const hits = evaluateLexicon(compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: shapes.map(written) }]), sample);
        expect(hits.map(({ term, matches }) => ({ term, matches }))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('pairs NEAR/n parts exactly as checking every pair does', () => {
    const shape = fc.record({ words: fc.array(word, { minLength: 1, maxLength: 2 }), prefix: fc.constant(false) });
    fc.assert(
      fc.property(shape, shape, fc.integer({ min: 1, max: 4 }), text, (first, second, distance, sample) => {
        const words = wordsOf(sample);
        const a = naiveOccurrences(first, words.forms);
        const b = naiveOccurrences(second, words.forms);
        const near = (x: { first: number; last: number }, y: { first: number; last: number }) =>
          (y.first > x.last && y.first - x.last - 1 <= distance) || (x.first > y.last && x.first - y.last - 1 <= distance);
        const parts = [...a.filter((x) => b.some((y) => near(x, y))), ...b.filter((y) => a.some((x) => near(x, y)))];
        const expected = [...new Set(parts.map(({ first: f, last }) => `${words.starts[f]}:${words.ends[last]}`))]
          .map((key) => key.split(':').map(Number) as [number, number])
          .sort((p, q) => p[0] - q[0] || p[1] - q[1])
          .map(([start, end]) => ({ start, end }));
        const term = `${written(first)} NEAR/${distance} ${written(second)}`;
        const hits = evaluateLexicon(compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: [term] }]), sample);
        expect(hits[0]?.matches ?? []).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('finds literal symbols around and between words exactly where a naive comparison of the gaps finds them', () => {
    const symbolGap = fc.constantFrom<string | null>(null, '.', '+', '-', '$', '.+');
    const shape = fc.record({
      words: fc.array(word, { minLength: 1, maxLength: 3 }),
      gaps: fc.array(symbolGap, { minLength: 2, maxLength: 2 }),
      lead: fc.constantFrom('', '$', '.'),
      trail: fc.constantFrom('', '+', '.'),
    });
    const writtenWithSymbols = (term: { words: string[]; gaps: (string | null)[]; lead: string; trail: string }) =>
      `${term.lead}${term.words.map((w, k) => (k === 0 ? w : `${term.gaps[k - 1] ?? ' '}${w}`)).join('')}${term.trail}`;
    const symbolText = fc
      .array(fc.tuple(word, fc.constantFrom(' ', '.', '+', ' $', '$', '-', ' - ', '.+', ' + ', '\n')), { maxLength: 30 })
      .map((parts) => parts.map(([w, separator]) => `${w}${separator}`).join(''));
    const symbolsOf = (part: string) => part.replace(/\s/g, '');
    fc.assert(
      fc.property(fc.uniqueArray(shape, { maxLength: 10, selector: writtenWithSymbols }), symbolText, (shapes, sample) => {
        const words = wordsOf(sample);
        const expected = shapes.flatMap((shape) => {
          const matches = naiveOccurrences({ words: shape.words, prefix: false }, words.forms).flatMap(({ first, last }) => {
            for (let k = 0; k + 1 < shape.words.length; k += 1) {
              const gap = shape.gaps[k] ?? null;
              if (gap !== null && symbolsOf(sample.slice(words.ends[first + k], words.starts[first + k + 1])) !== gap) return [];
            }
            const before = sample.slice(first === 0 ? 0 : words.ends[first - 1], words.starts[first]);
            const after = sample.slice(words.ends[last], last + 1 < words.forms.length ? words.starts[last + 1] : sample.length);
            if (!symbolsOf(before).endsWith(shape.lead) || !symbolsOf(after).startsWith(shape.trail)) return [];
            let leadAt = before.length;
            while (symbolsOf(before.slice(leadAt)).length < shape.lead.length) leadAt -= 1;
            let trailAt = 0;
            while (symbolsOf(after.slice(0, trailAt)).length < shape.trail.length) trailAt += 1;
            return [{ start: (words.starts[first] as number) - before.length + leadAt, end: (words.ends[last] as number) + trailAt }];
          });
          return matches.length > 0 ? [{ term: writtenWithSymbols(shape), matches }] : [];
        });
        const hits = evaluateLexicon(compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: shapes.map(writtenWithSymbols) }]), sample);
        expect(hits.map(({ term, matches }) => ({ term, matches }))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
