import { buildAutomaton, type WordAutomaton } from './automaton.ts';
import { indexPhrases, type PhraseIndex } from './phrase-fit.ts';
import { parseTerm, type Phrase } from './term-syntax.ts';

/** What the engine reads of a policy. Sampling policies have no terms and are not given to it. */
export interface LexiconPolicy {
  readonly policy_reference: string;
  readonly kind: 'Lexicon' | 'Ignore';
  readonly terms: readonly string[];
}

/** A term as the engine evaluates it: phrases by their index in `CompiledLexicon.phrases`. */
export type CompiledTerm = {
  readonly policy_reference: string;
  readonly kind: 'Lexicon' | 'Ignore';
  /** The term as the policy wrote it, for the hit. */
  readonly term: string;
} & (
  | { readonly operator: 'phrase'; readonly phrase: number }
  | { readonly operator: 'near'; readonly first: number; readonly second: number; readonly distance: number }
  | { readonly operator: 'not'; readonly phrase: number; readonly unless: number }
);

/** A term the engine could not use (the contract refuses such terms on save, so this lists stored leftovers only). */
export interface RefusedTerm {
  readonly policy_reference: string;
  readonly term: string;
  readonly problem: string;
}

export interface CompiledLexicon {
  /** Every usable term, policies in the order given and each policy's terms in its order (the hits' order). */
  readonly terms: readonly CompiledTerm[];
  /** Every distinct phrase of every term, each found once per text whatever the number of terms using it. */
  readonly phrases: readonly Phrase[];
  /** The phrases by their words (and prefix word): what the automaton finds, each pattern's phrases indexed. */
  readonly patterns: readonly PhraseIndex[];
  /** For each phrase, the terms that can only match when it occurs (a term is looked at only then). */
  readonly termsTriggeredBy: readonly (readonly number[])[];
  readonly automaton: WordAutomaton;
  readonly refused: readonly RefusedTerm[];
}

const phraseKey = (phrase: Phrase) => JSON.stringify([phrase.words, phrase.prefix, phrase.gaps, phrase.lead, phrase.trail]);
const patternKey = (phrase: Phrase) => JSON.stringify([phrase.words, phrase.prefix]);

/** Groups the phrases by their words, so the automaton finds each word pattern once for all its phrases. */
function wordPatterns(phrases: readonly Phrase[]): { words: readonly string[]; prefix: boolean; ids: number[] }[] {
  const byKey = new Map<string, { words: readonly string[]; prefix: boolean; ids: number[] }>();
  phrases.forEach((phrase, id) => {
    const key = patternKey(phrase);
    const pattern = byKey.get(key);
    if (pattern === undefined) byKey.set(key, { words: phrase.words, prefix: phrase.prefix, ids: [id] });
    else pattern.ids.push(id);
  });
  return [...byKey.values()];
}

/**
 * Compiles every term of every policy into one automaton, so evaluating a text costs time linear in the text
 * (plus the matches) whatever the number of terms. Never throws on a term: one it cannot parse is left out and
 * listed in `refused`; a term repeated within a policy counts once.
 */
export function compileLexicon(policies: readonly LexiconPolicy[]): CompiledLexicon {
  const phrases: Phrase[] = [];
  const phraseIds = new Map<string, number>();
  const terms: CompiledTerm[] = [];
  const refused: RefusedTerm[] = [];
  const idOf = (phrase: Phrase): number => {
    const key = phraseKey(phrase);
    let id = phraseIds.get(key);
    if (id === undefined) {
      id = phrases.length;
      phrases.push(phrase);
      phraseIds.set(key, id);
    }
    return id;
  };
  for (const { policy_reference, kind, terms: written } of policies) {
    for (const term of new Set(written)) {
      const result = parseTerm(term);
      if ('problem' in result) {
        refused.push({ policy_reference, term, problem: result.problem });
        continue;
      }
      const parsed = result.parsed;
      const base = { policy_reference, kind, term };
      if (parsed.kind === 'phrase') terms.push({ ...base, operator: 'phrase', phrase: idOf(parsed.phrase) });
      else if (parsed.kind === 'near') terms.push({ ...base, operator: 'near', first: idOf(parsed.first), second: idOf(parsed.second), distance: parsed.distance });
      else terms.push({ ...base, operator: 'not', phrase: idOf(parsed.phrase), unless: idOf(parsed.unless) });
    }
  }
  const termsTriggeredBy: number[][] = phrases.map(() => []);
  // A NEAR term needs both phrases and a NOT term its first, so one trigger phrase each is enough.
  terms.forEach((term, index) => (termsTriggeredBy[term.operator === 'near' ? term.first : term.phrase] as number[]).push(index));
  const patterns = wordPatterns(phrases);
  return {
    terms,
    phrases,
    patterns: patterns.map((pattern) => indexPhrases(phrases, pattern.ids)),
    termsTriggeredBy,
    automaton: buildAutomaton(patterns),
    refused,
  };
}
