import { describe, expect, it } from 'vitest';
import { compileLexicon } from './compile.ts';
import { evaluateLexicon } from './evaluate.ts';
import { highlightSegments } from './highlight.ts';

describe('highlight segments', () => {
  it('splits a text into plain and marked pieces that join back to the text', () => {
    expect(highlightSegments('I guarantee it', [{ start: 2, end: 11 }])).toEqual([
      { text: 'I ', marked: false },
      { text: 'guarantee', marked: true },
      { text: ' it', marked: false },
    ]);
  });

  it('merges overlapping and touching matches, in any order', () => {
    expect(highlightSegments('abcdefgh', [{ start: 4, end: 6 }, { start: 1, end: 3 }, { start: 2, end: 4 }, { start: 7, end: 8 }])).toEqual([
      { text: 'a', marked: false },
      { text: 'bcdef', marked: true },
      { text: 'g', marked: false },
      { text: 'h', marked: true },
    ]);
  });

  it('clamps out-of-range matches and drops empty or invalid ones', () => {
    expect(highlightSegments('abc', [{ start: -5, end: 1 }, { start: 2, end: 99 }, { start: 1, end: 1 }, { start: Number.NaN, end: 2 }])).toEqual([
      { text: 'a', marked: true },
      { text: 'b', marked: false },
      { text: 'c', marked: true },
    ]);
    expect(highlightSegments('', [{ start: 0, end: 3 }])).toEqual([]);
    expect(highlightSegments('plain', [])).toEqual([{ text: 'plain', marked: false }]);
  });

  it('marks exactly what the engine matched, emoji and accents around it included', () => {
    const text = '🚀 Off-the-record: CAFÉ 🚀';
    const hits = evaluateLexicon(compileLexicon([{ policy_reference: 'p', kind: 'Lexicon', terms: ['off the record', 'café'] }]), text);
    const segments = highlightSegments(text, hits.flatMap((hit) => hit.matches));
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
    expect(segments.filter((segment) => segment.marked).map((segment) => segment.text)).toEqual(['Off-the-record', 'CAFÉ']);
  });
});
