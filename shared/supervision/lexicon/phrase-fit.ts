import type { Phrase } from './term-syntax.ts';
import { isSpace, symbolForm, symbolsBetween, type Words } from './words.ts';

/** One place a phrase occurs: its first and last word, and its span in the text (UTF-16 code units, end exclusive). */
export interface Occurrence {
  readonly first: number;
  readonly last: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Where `lead` ends directly before `at` (whitespace between its symbols not compared), or -1 when it does not.
 * Walks back at most over the lead's symbols and the whitespace among them.
 */
function leadStart(text: string, at: number, lead: string): number {
  let position = at;
  for (let k = lead.length - 1; k >= 0; k -= 1) {
    position -= 1;
    while (position >= 0 && isSpace(text.charCodeAt(position))) position -= 1;
    if (position < 0 || symbolForm(text.charCodeAt(position)) !== lead.charCodeAt(k)) return -1;
  }
  return position;
}

/** Where `trail` ends when it starts directly at `at`, or -1 when it does not. */
function trailEnd(text: string, at: number, trail: string): number {
  let position = at;
  for (let k = 0; k < trail.length; k += 1) {
    while (position < text.length && isSpace(text.charCodeAt(position))) position += 1;
    if (position >= text.length || symbolForm(text.charCodeAt(position)) !== trail.charCodeAt(k)) return -1;
    position += 1;
  }
  return position;
}

/**
 * The occurrence of a phrase whose words were found at words first..last, when the symbols the term wrote between,
 * before and after its words stand there too; undefined when they do not. The span covers those symbols.
 */
export function fitPhrase(phrase: Phrase, text: string, words: Words, first: number, last: number): Occurrence | undefined {
  for (let k = 0; k < phrase.gaps.length; k += 1) {
    const gap = phrase.gaps[k];
    if (gap === null || gap === undefined) continue;
    if (symbolsBetween(text, words.ends[first + k] as number, words.starts[first + k + 1] as number) !== gap) return undefined;
  }
  let start = words.starts[first] as number;
  let end = words.ends[last] as number;
  if (phrase.lead !== '') {
    start = leadStart(text, start, phrase.lead);
    if (start < 0) return undefined;
  }
  if (phrase.trail !== '') {
    end = trailEnd(text, end, phrase.trail);
    if (end < 0) return undefined;
  }
  return { first, last, start, end };
}
