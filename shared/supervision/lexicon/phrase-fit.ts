import type { Phrase } from './term-syntax.ts';
import { isSpace, symbolForm, type Words } from './words.ts';

/**
 * The symbols a term writes around and between its words (`$100`, `c++`, `e-mail`). Phrases with the same words
 * (and the same prefix word) form one word pattern, found once by the automaton; this index then picks, with map
 * look-ups on the text's own symbols, the phrases whose symbols stand there. So a thousand terms that differ only in
 * their symbols ("a.b", "a-b", "a/b"…) still cost a bounded number of look-ups per place, not a thousand checks.
 */

/** One place a phrase occurs: its first and last word, and its span in the text (UTF-16 code units, end exclusive). */
export interface Occurrence {
  readonly first: number;
  readonly last: number;
  readonly start: number;
  readonly end: number;
}

/** Phrases with the same words and the same symbols between them, by lead and then by trail. */
interface Frames {
  readonly byLead: Map<string, Map<string, number[]>>;
  longestLead: number;
  longestTrail: number;
}

/**
 * The phrases of one word pattern: the one that writes no symbols (if any), and the others by which gaps name symbols
 * (a bit mask), then by those symbols.
 */
export interface PhraseIndex {
  plain: number | undefined;
  readonly masked: { readonly mask: number; readonly byKey: Map<string, Frames> }[];
}

const SEPARATOR = '\u0000';

export function indexPhrases(phrases: readonly Phrase[], ids: readonly number[]): PhraseIndex {
  const index: PhraseIndex = { plain: undefined, masked: [] };
  for (const id of ids) {
    const phrase = phrases[id] as Phrase;
    if (phrase.lead === '' && phrase.trail === '' && phrase.gaps.every((gap) => gap === null)) {
      index.plain = id;
      continue;
    }
    let mask = 0;
    const named: string[] = [];
    phrase.gaps.forEach((gap, k) => {
      if (gap === null) return;
      mask |= 1 << k;
      named.push(gap);
    });
    let byKey = index.masked.find((entry) => entry.mask === mask)?.byKey;
    if (byKey === undefined) index.masked.push({ mask, byKey: (byKey = new Map()) });
    const key = named.join(SEPARATOR);
    let frames = byKey.get(key);
    if (frames === undefined) byKey.set(key, (frames = { byLead: new Map(), longestLead: 0, longestTrail: 0 }));
    let byTrail = frames.byLead.get(phrase.lead);
    if (byTrail === undefined) frames.byLead.set(phrase.lead, (byTrail = new Map()));
    byTrail.set(phrase.trail, [...(byTrail.get(phrase.trail) ?? []), id]);
    frames.longestLead = Math.max(frames.longestLead, phrase.lead.length);
    frames.longestTrail = Math.max(frames.longestTrail, phrase.trail.length);
  }
  return index;
}

/**
 * Up to `limit` symbols (whitespace skipped, compared form) next to `from`, walking towards `stop` (exclusive) in
 * `step` direction; `symbols` reads in text order either way. positions[n] is where the n nearest symbols reach:
 * the start of a lead of n symbols, or the end of a trail of n symbols.
 */
function symbolsFrom(text: string, from: number, stop: number, step: 1 | -1, limit: number): { symbols: string; positions: number[] } {
  let symbols = '';
  const positions = [from];
  for (let at = from; symbols.length < limit && at !== stop; at += step) {
    const unit = text.charCodeAt(step === 1 ? at : at - 1);
    if (isSpace(unit)) continue;
    const symbol = String.fromCharCode(symbolForm(unit));
    symbols = step === 1 ? symbols + symbol : symbol + symbols;
    positions.push(at + step);
  }
  return { symbols, positions };
}

/** The symbols (compared form, whitespace left out) of the gaps between words first..last. */
function innerSymbols(text: string, words: Words, first: number, last: number): string[] {
  const gaps: string[] = [];
  for (let k = first; k < last; k += 1) {
    const end = words.starts[k + 1] as number;
    gaps.push(symbolsFrom(text, words.ends[k] as number, end, 1, Number.MAX_SAFE_INTEGER).symbols);
  }
  return gaps;
}

function add(found: Map<number, Occurrence[]>, phrase: number, occurrence: Occurrence): void {
  const list = found.get(phrase);
  if (list === undefined) found.set(phrase, [occurrence]);
  else list.push(occurrence);
}

/**
 * Every phrase of a word pattern found at words first..last whose symbols stand where the term wrote them, with
 * its span (which covers a lead and a trail), added to `found` by phrase. Whitespace among symbols is not compared.
 */
export function fitPhrases(index: PhraseIndex, text: string, words: Words, first: number, last: number, found: Map<number, Occurrence[]>): void {
  let gaps: string[] | undefined;
  const wordStart = words.starts[first] as number;
  const wordEnd = words.ends[last] as number;
  // Phrases are unique, so at most one writes no symbols: the common case, with nothing to compare.
  if (index.plain !== undefined) add(found, index.plain, { first, last, start: wordStart, end: wordEnd });
  for (const { mask, byKey } of index.masked) {
    let key = '';
    if (mask !== 0) {
      gaps ??= innerSymbols(text, words, first, last);
      key = gaps.filter((_, k) => (mask & (1 << k)) !== 0).join(SEPARATOR);
    }
    const frames = byKey.get(key);
    if (frames === undefined) continue;
    if (frames.longestLead === 0 && frames.longestTrail === 0) {
      const occurrence = { first, last, start: wordStart, end: wordEnd };
      for (const id of frames.byLead.get('')?.get('') ?? []) add(found, id, occurrence);
      continue;
    }
    const before = symbolsFrom(text, wordStart, first === 0 ? 0 : (words.ends[first - 1] as number), -1, frames.longestLead);
    const after = symbolsFrom(text, wordEnd, last + 1 < words.starts.length ? (words.starts[last + 1] as number) : text.length, 1, frames.longestTrail);
    for (let leadLength = 0; leadLength <= before.symbols.length; leadLength += 1) {
      const byTrail = frames.byLead.get(before.symbols.slice(before.symbols.length - leadLength));
      if (byTrail === undefined) continue;
      for (let trailLength = 0; trailLength <= after.symbols.length; trailLength += 1) {
        const ids = byTrail.get(after.symbols.slice(0, trailLength));
        if (ids === undefined) continue;
        const occurrence = { first, last, start: before.positions[leadLength] as number, end: after.positions[trailLength] as number };
        for (const id of ids) add(found, id, occurrence);
      }
    }
  }
}
