import { isSpace, symbolsBetween, wordsOf } from './words.ts';

/**
 * The lexicon term syntax. A term is one of:
 *
 * - a word or phrase: `guarantee`, `off the record`. Matched case-insensitively on whole words (words: ./words.ts).
 *   Whitespace between two words of a term stands for any run of spaces, punctuation or line breaks, so
 *   `off the record` also finds "off-the-record" and "off the\nrecord".
 * - a prefix: `*` directly after the LAST word makes it a prefix, `guarant*` finds "guarantee", "guaranteed".
 * - `A NEAR/n B`: phrases A and B with at most n words between them (n from 1 to 50), in either order.
 * - `A NOT B`: A, counted only when B occurs nowhere in the same text.
 *
 * Every other character is literal, never a pattern: `*` anywhere else, `.`, `+`, `?`, `[`, `|`, `\`, `^`, `$`,
 * emoji… must stand in the text exactly where they stand in the term (whitespace around them is not compared), so
 * `c++` finds "C++" but not "C", and `e-mail` finds "e-mail" but not "e mail". Operators are the upper-case `NEAR/n`
 * and `NOT` only ("not" in lower case is a word); at most one per term, and parentheses are refused, since the only
 * reason to write them is grouping, which the syntax does not have: each alternative is a term of its own.
 */

/** The longest lexicon term, in characters. */
export const TERM_LENGTH_MAX = 200;
/** The most words a phrase (each side of an operator) may have. */
export const PHRASE_WORDS_MAX = 10;
/** The largest n of `NEAR/n`. */
export const NEAR_DISTANCE_MAX = 50;

/** A phrase as the engine matches it: its words and what must stand around and between them. */
export interface Phrase {
  /** The words' compared forms (./words.ts). */
  readonly words: readonly string[];
  /** The last word is a prefix (`guarant*`). */
  readonly prefix: boolean;
  /** Between word k and k+1: null when the term had only whitespace there (any separator), else the symbols. */
  readonly gaps: readonly (string | null)[];
  /** Symbols that must directly precede the first word and follow the last ('' for none). */
  readonly lead: string;
  readonly trail: string;
}

export type ParsedTerm =
  | { readonly kind: 'phrase'; readonly phrase: Phrase }
  | { readonly kind: 'near'; readonly first: Phrase; readonly second: Phrase; readonly distance: number }
  | { readonly kind: 'not'; readonly phrase: Phrase; readonly unless: Phrase };

export type TermParse = { readonly parsed: ParsedTerm } | { readonly problem: string };

const WILDCARD = '*';
const NEAR = /^NEAR(?:\/(.*))?$/;

/** A phrase from its text (trimmed), or why it cannot be one. `side` names it in a message. */
function parsePhrase(text: string, side: string): Phrase | string {
  const found = wordsOf(text);
  const count = found.forms.length;
  if (count === 0) return side === '' ? 'Must contain a word' : `${side} must contain a word`;
  if (count > PHRASE_WORDS_MAX) return `${side === '' ? 'A phrase' : side} must have at most ${PHRASE_WORDS_MAX} words`;
  const gaps: (string | null)[] = [];
  for (let k = 0; k + 1 < count; k += 1) {
    const from = found.ends[k] as number;
    const to = found.starts[k + 1] as number;
    const symbols = symbolsBetween(text, from, to);
    gaps.push(symbols === '' && to > from ? null : symbols);
  }
  const tail = text.slice(found.ends[count - 1]);
  const prefix = tail === WILDCARD;
  return {
    words: found.forms,
    prefix,
    gaps,
    lead: symbolsBetween(text, 0, found.starts[0] as number),
    trail: prefix ? '' : symbolsBetween(tail, 0, tail.length),
  };
}

function nearDistance(operator: string): number | undefined {
  const written = NEAR.exec(operator)?.[1];
  if (written === undefined || !/^\d{1,2}$/.test(written)) return undefined;
  const distance = Number(written);
  return distance >= 1 && distance <= NEAR_DISTANCE_MAX ? distance : undefined;
}

const isOperator = (part: string) => part === 'NOT' || NEAR.test(part);

/** Parses a term; never throws, whatever the input. */
export function parseTerm(term: string): TermParse {
  if (term.length > TERM_LENGTH_MAX) return { problem: `Must be at most ${TERM_LENGTH_MAX} characters` };
  let blank = true;
  for (let i = 0; i < term.length && blank; i += 1) blank = isSpace(term.charCodeAt(i));
  if (blank) return { problem: 'Must contain a word' };
  if (/[()]/.test(term)) {
    return { problem: 'Must not use parentheses: one operator per term (A NEAR/n B or A NOT B), each alternative a term of its own' };
  }
  const parts = term.trim().split(/\s+/);
  const operators = parts.flatMap((part, index) => (isOperator(part) ? [index] : []));
  if (operators.length === 0) return phraseTerm(parts.join(' '));
  if (operators.length > 1) return { problem: 'Must use at most one operator (NEAR/n or NOT): operators do not nest' };
  const at = operators[0] as number;
  const operator = parts[at] as string;
  if (at === 0 || at === parts.length - 1) return { problem: `${operator} needs a phrase on each side` };
  const first = parsePhrase(parts.slice(0, at).join(' '), `The phrase before ${operator}`);
  if (typeof first === 'string') return { problem: first };
  const second = parsePhrase(parts.slice(at + 1).join(' '), `The phrase after ${operator}`);
  if (typeof second === 'string') return { problem: second };
  if (operator === 'NOT') return { parsed: { kind: 'not', phrase: first, unless: second } };
  const distance = nearDistance(operator);
  if (distance === undefined) return { problem: `Write NEAR/n with n from 1 to ${NEAR_DISTANCE_MAX} (the most words between the two phrases)` };
  return { parsed: { kind: 'near', first, second, distance } };
}

function phraseTerm(text: string): TermParse {
  const phrase = parsePhrase(text, '');
  return typeof phrase === 'string' ? { problem: phrase } : { parsed: { kind: 'phrase', phrase } };
}

/**
 * Why a lexicon term cannot be used, as one line for the caller, or undefined when it can. The contract validates
 * every term of a policy with this, so a term the engine would refuse is a 400 on save, never a 5xx at processing.
 */
export function termProblem(term: string): string | undefined {
  const result = parseTerm(term);
  return 'problem' in result ? result.problem : undefined;
}
