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

const LETTER_DIGIT_MARK = /[\p{L}\p{N}\p{M}]/u;
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const APOSTROPHE_VARIANTS = /[\u2019\u02BC]/g;

/** What a character is to the reader. */
const SEPARATOR = 0;
const WORD = 1;
const APOSTROPHE = 2;
/** A word on its own (Han, Hiragana, Katakana). */
const IDEOGRAPH_WORD = 3;
const UNKNOWN = 255;

function classifyCodePoint(codePoint: number): number {
  if (codePoint === 0x27 || codePoint === 0x2019 || codePoint === 0x2bc) return APOSTROPHE;
  const character = String.fromCodePoint(codePoint);
  if (!LETTER_DIGIT_MARK.test(character)) return SEPARATOR;
  return IDEOGRAPH.test(character) ? IDEOGRAPH_WORD : WORD;
}

/**
 * Classes of the Basic Multilingual Plane, filled on first sight (the Unicode property tests are the slow part of
 * reading; a text repeats few distinct characters). ASCII is filled up front. 64 KiB, once per process.
 */
const BMP_CLASSES = new Uint8Array(0x10000).fill(UNKNOWN);
for (let unit = 0; unit < 0x80; unit += 1) BMP_CLASSES[unit] = classifyCodePoint(unit);

function classOf(codePoint: number): number {
  if (codePoint > 0xffff) return classifyCodePoint(codePoint);
  let found = BMP_CLASSES[codePoint] as number;
  if (found === UNKNOWN) BMP_CLASSES[codePoint] = found = classifyCodePoint(codePoint);
  return found;
}

/** The compared form of one word: lower case, NFC, apostrophes folded. */
function wordForm(word: string): string {
  for (let i = 0; i < word.length; i += 1) {
    if (word.charCodeAt(i) > 0x7f) return word.replace(APOSTROPHE_VARIANTS, "'").toLowerCase().normalize('NFC');
  }
  return word.toLowerCase();
}

/** Adds text[from, to) as a word, without the apostrophes at its edges (quotes, not part of the word). */
function pushWord(text: string, lower: string | undefined, from: number, to: number, words: Words): void {
  let start = from;
  let end = to;
  while (start < end && classOf(text.charCodeAt(start)) === APOSTROPHE) start += 1;
  while (end > start && classOf(text.charCodeAt(end - 1)) === APOSTROPHE) end -= 1;
  if (start === end) return;
  words.starts.push(start);
  words.ends.push(end);
  words.forms.push(lower === undefined ? wordForm(text.slice(start, end)) : lower.slice(start, end));
}

/**
 * The words of a text, in order, in one pass over its characters. An ASCII word's form is a slice of the text
 * lower-cased once (lower-casing never shortens a text, so equal lengths mean equal offsets); other words are
 * folded one by one.
 */
export function wordsOf(text: string): Words {
  const words: Words = { starts: [], ends: [], forms: [] };
  const lowered = text.toLowerCase();
  const lower = lowered.length === text.length ? lowered : undefined;
  let runStart = -1;
  let runAscii = true;
  for (let at = 0; at < text.length; ) {
    const unit = text.charCodeAt(at);
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length) {
      const low = text.charCodeAt(at + 1);
      if (low >= 0xdc00 && low <= 0xdfff) codePoint = (unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
    }
    const width = codePoint > 0xffff ? 2 : 1;
    const found = unit < 0x80 ? (BMP_CLASSES[unit] as number) : classOf(codePoint);
    if (found === WORD || found === APOSTROPHE) {
      if (runStart < 0) {
        runStart = at;
        runAscii = true;
      }
      if (unit >= 0x80) runAscii = false;
    } else {
      if (runStart >= 0) pushWord(text, runAscii ? lower : undefined, runStart, at, words);
      runStart = -1;
      if (found === IDEOGRAPH_WORD) pushWord(text, undefined, at, at + width, words);
    }
    at += width;
  }
  if (runStart >= 0) pushWord(text, runAscii ? lower : undefined, runStart, text.length, words);
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
