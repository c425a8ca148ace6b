import { describe, expect, it } from 'vitest';
import { sideOf, tokensOf, wordDiff, type WordPart } from './word-diff.ts';

const joined = (parts: readonly WordPart[]) => parts.map((part) => part.text).join('');

describe('wordDiff', () => {
  it('marks the one changed word of a sentence, keeping the rest as it was', () => {
    expect(wordDiff('The caller agreed to the price', 'The caller refused the price')).toEqual([
      { change: 'same', text: 'The caller ' },
      { change: 'removed', text: 'agreed to' },
      { change: 'added', text: 'refused' },
      { change: 'same', text: ' the price' },
    ]);
  });

  it('marks words added at the end and removed at the start', () => {
    expect(wordDiff('Please review', 'Please review again')).toEqual([
      { change: 'same', text: 'Please review' },
      { change: 'added', text: ' again' },
    ]);
    expect(wordDiff('Urgent: call back', 'call back')).toEqual([
      { change: 'removed', text: 'Urgent: ' },
      { change: 'same', text: 'call back' },
    ]);
  });

  it('reads a replaced phrase as one removed and one added run, not word by word', () => {
    const parts = wordDiff('a quick brown fox', 'a slow red fox');
    expect(parts).toEqual([
      { change: 'same', text: 'a ' },
      { change: 'removed', text: 'quick brown' },
      { change: 'added', text: 'slow red' },
      { change: 'same', text: ' fox' },
    ]);
  });

  it('gives each side back exactly, white space and line breaks included', () => {
    const before = 'Line one\n\nLine  two with  spaces';
    const after = 'Line one\nLine two with spaces and more';
    const parts = wordDiff(before, after);
    expect(joined(sideOf(parts, 'before'))).toBe(before);
    expect(joined(sideOf(parts, 'after'))).toBe(after);
  });

  it('says nothing changed for equal texts, and all of a text for one that was empty', () => {
    expect(wordDiff('same words', 'same words')).toEqual([{ change: 'same', text: 'same words' }]);
    expect(wordDiff('', '')).toEqual([]);
    expect(wordDiff('', 'new text')).toEqual([{ change: 'added', text: 'new text' }]);
    expect(wordDiff('old text', '')).toEqual([{ change: 'removed', text: 'old text' }]);
  });

  it('still answers truly, coarser, for texts too long to compare word by word', () => {
    const before = Array.from({ length: 2500 }, (_, index) => `w${index}`).join(' ');
    const after = Array.from({ length: 2500 }, (_, index) => `x${index}`).join(' ');
    expect(wordDiff(before, after)).toEqual([
      { change: 'removed', text: before },
      { change: 'added', text: after },
    ]);
  });

  it('splits a text into words and the spaces between them', () => {
    expect(tokensOf(' a  b\nc ')).toEqual([' ', 'a', '  ', 'b', '\n', 'c', ' ']);
  });
});
