/**
 * Parser for the subset of RE2 syntax that tenant matchers may use: literals and escapes (`\d \w \s \D \W \S`,
 * `\n \t \r \f \v \a`, `\x41`, `\x{1F600}`, escaped punctuation), `.`, character classes with ranges and negation,
 * groups `( )` and `(?: )`, alternation `|`, the quantifiers `* + ? {m} {m,} {m,n}` (counts at most 1000, as RE2)
 * with their lazy forms, and `^ $`. Anything else RE2 accepts (Unicode classes, inline flags, named groups, word
 * boundaries, POSIX classes, octal escapes) and everything RE2 refuses (look-around, back-references) is refused
 * here with a sentence naming the construct, so a stored pattern never means something other than what RE2 reads.
 *
 * Semantics follow RE2's defaults: case-sensitive, `.` matches any character except a newline, `^` and `$` match
 * only at the start and end of the whole value, negated classes match newlines. The parser recurses over the
 * pattern (at most 255 characters), never over the input.
 */

/** A set of code points as sorted, non-overlapping inclusive ranges: [lo0, hi0, lo1, hi1, …]. */
export type CodePointRanges = readonly number[];

export type RegexNode =
  | { readonly kind: 'set'; readonly ranges: CodePointRanges }
  | { readonly kind: 'empty' }
  | { readonly kind: 'begin' }
  | { readonly kind: 'end' }
  | { readonly kind: 'concat'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'alternate'; readonly options: readonly RegexNode[] }
  /** `max` is -1 for an unbounded repeat. */
  | { readonly kind: 'repeat'; readonly item: RegexNode; readonly min: number; readonly max: number };

/** A pattern this engine will not run; the message completes "The pattern …". */
export class PatternError extends Error {}

/** RE2's limit on a counted repeat, and on the product of nested counted repeats. */
export const MAX_REPEAT_COUNT = 1000;
const MAX_CODE_POINT = 0x10ffff;

const DIGITS: CodePointRanges = [0x30, 0x39];
const WORD: CodePointRanges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE: CodePointRanges = [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x20];
const ANY_BUT_NEWLINE: CodePointRanges = [0, 0x09, 0x0b, MAX_CODE_POINT];

/** Sorts and merges ranges given as [lo, hi] pairs in any order. */
export function normaliseRanges(pairs: readonly number[]): CodePointRanges {
  const list: Array<[number, number]> = [];
  for (let i = 0; i < pairs.length; i += 2) list.push([pairs[i] as number, pairs[i + 1] as number]);
  list.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of list) {
    const last = merged.length - 1;
    if (last > 0 && lo <= (merged[last] as number) + 1) merged[last] = Math.max(merged[last] as number, hi);
    else merged.push(lo, hi);
  }
  return merged;
}

/** Every code point not in the (normalised) ranges. */
export function negateRanges(ranges: CodePointRanges): CodePointRanges {
  const result: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i] as number;
    if (lo > next) result.push(next, lo - 1);
    next = (ranges[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) result.push(next, MAX_CODE_POINT);
  return result;
}

const PERL_CLASSES: Record<string, CodePointRanges> = {
  d: DIGITS,
  D: negateRanges(DIGITS),
  w: WORD,
  W: negateRanges(WORD),
  s: SPACE,
  S: negateRanges(SPACE),
};

const CONTROL_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

/** Escapes RE2 knows that we refuse, with the sentence that says so. */
const REFUSED_ESCAPES: Record<string, string> = {
  b: 'uses a word boundary (\\b), which is not supported',
  B: 'uses a word boundary (\\B), which is not supported',
  A: 'uses \\A, which is not supported; use ^',
  z: 'uses \\z, which is not supported; use $',
  p: 'uses a Unicode class (\\p), which is not supported',
  P: 'uses a Unicode class (\\P), which is not supported',
  Q: 'uses \\Q…\\E quoting, which is not supported; escape each character instead',
  E: 'uses \\Q…\\E quoting, which is not supported; escape each character instead',
  C: 'uses \\C (any byte), which is not supported',
};

const isAsciiAlphanumeric = (char: string): boolean => /^[0-9A-Za-z]$/.test(char);

interface Repetition {
  readonly min: number;
  readonly max: number;
  readonly text: string;
}

class Parser {
  private pos = 0;

  constructor(private readonly chars: readonly string[]) {}

  parse(): RegexNode {
    const node = this.alternation();
    if (this.pos < this.chars.length) this.fail('has a ")" without a matching "("');
    return node;
  }

  private fail(message: string): never {
    throw new PatternError(`${message} (at character ${this.pos + 1})`);
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }

  private alternation(): RegexNode {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: 'alternate', options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    let lastWasRepeat = false;
    while (this.pos < this.chars.length && this.peek() !== '|' && this.peek() !== ')') {
      const start = this.pos;
      const repetition = this.repetition();
      if (repetition === undefined) {
        items.push(this.atom());
        lastWasRepeat = false;
        continue;
      }
      const item = items.pop();
      if (item === undefined) {
        this.pos = start;
        this.fail(`has a repetition "${repetition.text}" with nothing before it to repeat`);
      }
      if (lastWasRepeat) {
        this.pos = start;
        this.fail(`repeats a repetition ("${repetition.text}"); wrap the first in (?: ) to repeat it again`);
      }
      const node: RegexNode = { kind: 'repeat', item, min: repetition.min, max: repetition.max };
      if ((repetition.min >= 2 || repetition.max >= 2) && !nestedRepeatsWithin(node, MAX_REPEAT_COUNT)) {
        this.pos = start;
        this.fail(`nests counted repeats whose counts multiply past ${MAX_REPEAT_COUNT}`);
      }
      items.push(node);
      lastWasRepeat = true;
    }
    if (items.length === 0) return { kind: 'empty' };
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'concat', items };
  }

  /** A quantifier at the cursor (consumed, lazy marker included), or undefined (a `{` that is no count is literal). */
  private repetition(): Repetition | undefined {
    const start = this.pos;
    const char = this.peek();
    let min: number;
    let max: number;
    if (char === '*') [min, max] = [0, -1];
    else if (char === '+') [min, max] = [1, -1];
    else if (char === '?') [min, max] = [0, 1];
    else if (char === '{') {
      const rest = this.chars.slice(this.pos).join('');
      const count = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (count === null) return undefined;
      const [whole, low = '', comma, high = ''] = count;
      if (/^0\d/.test(low) || /^0\d/.test(high)) this.fail(`has a counted repeat "${whole}" with a leading zero`);
      min = Number(low);
      max = comma === undefined ? min : high === '' ? -1 : Number(high);
      if (min > MAX_REPEAT_COUNT || max > MAX_REPEAT_COUNT || (max >= 0 && min > max)) {
        this.fail(`has an invalid repeat count "${whole}" (counts run from 0 to ${MAX_REPEAT_COUNT}, low before high)`);
      }
      this.pos += whole.length - 1;
    } else return undefined;
    this.pos += 1;
    if (this.peek() === '?') this.pos += 1;
    return { min, max, text: this.chars.slice(start, this.pos).join('') };
  }

  private atom(): RegexNode {
    const char = this.peek() as string;
    this.pos += 1;
    switch (char) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'set', ranges: this.characterClass() };
      case '.':
        return { kind: 'set', ranges: ANY_BUT_NEWLINE };
      case '^':
        return { kind: 'begin' };
      case '$':
        return { kind: 'end' };
      case '\\': {
        const perl = this.perlClass();
        if (perl !== undefined) return { kind: 'set', ranges: perl };
        const code = this.escapedCharacter();
        return { kind: 'set', ranges: [code, code] };
      }
      default: {
        const code = char.codePointAt(0) as number;
        return { kind: 'set', ranges: [code, code] };
      }
    }
  }

  /** After `(`: a capturing group or `(?: )`; every other `(?` form is refused by name. */
  private group(): RegexNode {
    if (this.peek() === '?') {
      const next = this.peek(1);
      const after = this.peek(2);
      if (next === '=' || next === '!' || (next === '<' && (after === '=' || after === '!'))) {
        this.fail('uses look-around ((?=, (?!, (?<=, (?<!), which RE2 does not support');
      }
      if (next === 'P' || next === '<') this.fail('uses a named group, which is not supported; use ( ) or (?: )');
      if (next !== ':') this.fail('uses inline flags such as (?i), which are not supported');
      this.pos += 2;
    }
    const inner = this.alternation();
    if (this.peek() !== ')') this.fail('is missing a closing ")"');
    this.pos += 1;
    return inner;
  }

  /** After `\`: the ranges of `\d \w \s \D \W \S` (consumed), or undefined. */
  private perlClass(): CodePointRanges | undefined {
    const ranges = PERL_CLASSES[this.peek() ?? ''];
    if (ranges !== undefined) this.pos += 1;
    return ranges;
  }

  /** After `\`: the one code point an escape stands for (consumed). */
  private escapedCharacter(): number {
    const char = this.peek();
    if (char === undefined) this.fail('ends with a lone backslash');
    this.pos += 1;
    const control = CONTROL_ESCAPES[char];
    if (control !== undefined) return control;
    if (char === 'x') return this.hexEscape();
    if (/^[0-9]$/.test(char)) this.fail(`uses "\\${char}": back-references and octal escapes are not supported`);
    const refused = REFUSED_ESCAPES[char];
    if (refused !== undefined) this.fail(refused);
    const code = char.codePointAt(0) as number;
    if (code < 0x80 && !isAsciiAlphanumeric(char)) return code;
    this.fail(`has an unknown escape "\\${char}"`);
  }

  /** After `\x`: two hex digits or `{hex}`. */
  private hexEscape(): number {
    const rest = this.chars.slice(this.pos, this.pos + 10).join('');
    const hex = /^(?:([0-9A-Fa-f]{2})|\{([0-9A-Fa-f]{1,8})\})/.exec(rest);
    const value = hex === null ? NaN : parseInt(hex[1] ?? hex[2] ?? '', 16);
    if (hex === null || value > MAX_CODE_POINT) this.fail('has an invalid \\x escape (use \\x41 or \\x{1F600})');
    this.pos += hex[0].length;
    return value;
  }

  /** After `[`: the class's code points, negation applied. */
  private characterClass(): CodePointRanges {
    const negated = this.peek() === '^';
    if (negated) this.pos += 1;
    const pairs: number[] = [];
    let first = true;
    while (this.peek() !== ']' || first) {
      const char = this.peek();
      if (char === undefined) this.fail('is missing a closing "]" for a character class');
      first = false;
      if (char === '[' && this.peek(1) === ':' && this.chars.slice(this.pos + 2).join('').includes(':]')) {
        this.fail('uses a POSIX class such as [:alpha:], which is not supported');
      }
      if (char === '\\') {
        this.pos += 1;
        const perl = this.perlClass();
        if (perl !== undefined) {
          pairs.push(...perl);
          continue;
        }
        this.pos -= 1;
      }
      const low = this.classCharacter();
      let high = low;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos += 1;
        high = this.classCharacter();
        if (high < low) this.fail('has a character class range that runs backwards');
      }
      pairs.push(low, high);
    }
    this.pos += 1;
    const ranges = normaliseRanges(pairs);
    return negated ? negateRanges(ranges) : ranges;
  }

  private classCharacter(): number {
    const char = this.peek() as string;
    this.pos += 1;
    if (char === '\\') {
      if (PERL_CLASSES[this.peek() ?? ''] !== undefined) this.fail('has a character class range ending in a class');
      return this.escapedCharacter();
    }
    return char.codePointAt(0) as number;
  }
}

/** RE2's check that nested counted repeats do not multiply past `limit`. */
function nestedRepeatsWithin(node: RegexNode, limit: number): boolean {
  let remaining = limit;
  if (node.kind === 'repeat') {
    let count = node.max;
    if (count === 0) return true;
    if (count < 0) count = node.min;
    if (count > remaining) return false;
    if (count > 0) remaining = Math.trunc(remaining / count);
  }
  const children = node.kind === 'repeat' ? [node.item] : node.kind === 'concat' ? node.items : node.kind === 'alternate' ? node.options : [];
  return children.every((child) => nestedRepeatsWithin(child, remaining));
}

/** Parses a pattern (split into code points) or throws a PatternError naming what is wrong. */
export function parsePattern(pattern: string): RegexNode {
  return new Parser(Array.from(pattern)).parse();
}
