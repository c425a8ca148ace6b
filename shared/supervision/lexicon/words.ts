/**
 * How the lexicon reads text: as words, the same way for a policy's terms and for the messages they are looked for in.
 *
 * A word is a run of Unicode letters, digits and combining marks (`\p{L}\p{N}\p{M}`), with apostrophes (' ’ ʼ) inside
 * it: "don't" is one word, while the quotes of 'guarantee' are not part of the word. Everything else (spaces,
 * punctuation, symbols, emoji, `_`) separates words. A Han, Hiragana or Katakana character is a word of its own,
 * because those scripts are written without spaces. Words compare case-insensitively and in one Unicode form (NFC),
 * with the apostrophe variants folded into one, so "GUARANTEE", "Guarantee" and "guarantee" are the same word and so
 * are "don't" and "don’t"; accents are kept ("café" is not "cafe").
 */

/** The words of a text: where each starts and ends (UTF-16 code units, end exclusive) and its compared form. */
export interface Words {
  readonly starts: number[];
  readonly ends: number[];
  readonly forms: string[];
}

const WORD_RUN = /[\p{L}\p{N}\p{M}'\u2019\u02BC]+/gu;
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Below this code unit no character is an ideograph (U+2E80 starts the CJK radicals), so most runs skip the test. */
const FIRST_IDEOGRAPH_UNIT = 0x2e80;
const APOSTROPHE_VARIANTS = /[\u2019\u02BC]/g;

const isApostrophe = (unit: number) => unit === 0x27 || unit === 0x2019 || unit === 0x2bc;

/** The compared form of one word: lower case, NFC, apostrophes folded. */
export function wordForm(word: string): string {
  for (let i = 0; i < word.length; i += 1) {
    if (word.charCodeAt(i) > 0x7f) return word.replace(APOSTROPHE_VARIANTS, "'").toLowerCase().normalize('NFC');
  }
  return word.toLowerCase();
}

/** Adds the word text[start, end) without the apostrophes at its edges (quotes, not part of the word). */
function pushWord(text: string, start: number, end: number, words: Words): void {
  let from = start;
  let to = end;
  while (from < to && isApostrophe(text.charCodeAt(from))) from += 1;
  while (to > from && isApostrophe(text.charCodeAt(to - 1))) to -= 1;
  if (from === to) return;
  words.starts.push(from);
  words.ends.push(to);
  words.forms.push(wordForm(text.slice(from, to)));
}

function hasHighUnit(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (text.charCodeAt(i) >= FIRST_IDEOGRAPH_UNIT) return true;
  return false;
}

/** Splits a run that holds ideographs: each ideograph alone, the letters between them as words. */
function pushRunWithIdeographs(text: string, start: number, end: number, words: Words): void {
  let pending = start;
  let at = start;
  while (at < end) {
    const codePoint = text.codePointAt(at) as number;
    const width = codePoint > 0xffff ? 2 : 1;
    if (IDEOGRAPH.test(String.fromCodePoint(codePoint))) {
      pushWord(text, pending, at, words);
      pushWord(text, at, at + width, words);
      pending = at + width;
    }
    at += width;
  }
  pushWord(text, pending, end, words);
}

/** The words of a text, in order. Linear in the text. */
export function wordsOf(text: string): Words {
  const words: Words = { starts: [], ends: [], forms: [] };
  WORD_RUN.lastIndex = 0;
  for (let found = WORD_RUN.exec(text); found !== null; found = WORD_RUN.exec(text)) {
    const start = found.index;
    const end = start + found[0].length;
    if (hasHighUnit(text, start, end)) pushRunWithIdeographs(text, start, end, words);
    else pushWord(text, start, end, words);
  }
  return words;
}

/** Whitespace as `\s` reads it, without a regular expression for the common cases. */
export function isSpace(unit: number): boolean {
  if (unit === 0x20 || (unit >= 0x09 && unit <= 0x0d)) return true;
  if (unit < 0xa0) return false;
  return /\s/.test(String.fromCharCode(unit));
}

/** A separator character as terms and texts compare it: apostrophe variants folded, everything else as it is. */
export function symbolForm(unit: number): number {
  return unit === 0x2019 || unit === 0x2bc ? 0x27 : unit;
}

/** The separator characters of text[start, end) without its whitespace, compared form. */
export function symbolsBetween(text: string, start: number, end: number): string {
  let symbols = '';
  for (let i = start; i < end; i += 1) {
    const unit = text.charCodeAt(i);
    if (!isSpace(unit)) symbols += String.fromCharCode(symbolForm(unit));
  }
  return symbols;
}
