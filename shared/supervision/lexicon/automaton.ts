/**
 * One Aho-Corasick automaton over WORDS for every word pattern (a phrase's words, whatever symbols the term writes
 * around them: ./phrase-fit.ts) of every policy: the text is read once, word by word, and each word costs one map
 * look-up and amortised O(1) transitions whatever the number of patterns. A pattern whose last
 * word is a prefix (`guarantee of return*`) is stored as its other words (the body) and the prefix in a character
 * trie hung on the body's node; when a body ends at word i, word i+1 is walked through that trie. Since a pattern
 * has at most 10 words, at most 10 nodes report at one word, so the work stays linear in the text plus the matches.
 */

import { buildPrefixTrie, walkPrefixes, type PrefixTrie } from './prefix-trie.ts';

interface State {
  readonly next: Map<number, number>;
  readonly depth: number;
  fail: number;
  /** The nearest state on the fail chain that reports something, or -1. */
  report: number;
  /** Patterns (without a prefix word) whose words end here. */
  readonly patterns: number[];
  /** Prefix words of patterns whose body ends here (./prefix-trie.ts). */
  prefixes: PrefixTrie | undefined;
}

const ROOT = 0;
const UNKNOWN_WORD = -1;

export interface WordAutomaton {
  /** The phrases' words, each with its id. */
  readonly vocabulary: Map<string, number>;
  readonly states: State[];
  /**
   * A cheap first test for one-word prefixes (`guarant*`): the shortest one's length, and a 64 Ki filter of the first
   * `width` (1 or 2) characters of each. A word too short or whose start is not in the filter skips the walk through
   * the prefix trie; a false pass (two starts sharing a slot) only costs that walk, never a wrong match.
   */
  readonly rootGate: { readonly shortest: number; readonly width: number; readonly heads: Uint8Array };
}

/** The filter slot of a word's first `width` (1 or 2) UTF-16 units; the word is at least that long. */
const headOf = (word: string, width: number) => (width === 1 ? word.charCodeAt(0) : (word.charCodeAt(0) * 31 + word.charCodeAt(1)) & 0xffff);

const newState = (depth: number): State => ({ next: new Map(), depth, fail: ROOT, report: -1, patterns: [], prefixes: undefined });

const reports = (state: State) => state.patterns.length > 0 || state.prefixes !== undefined;

/** Builds the automaton; `patterns[i]` is pattern i's words, the last a prefix when `prefix`. */
export function buildAutomaton(patterns: readonly { readonly words: readonly string[]; readonly prefix: boolean }[]): WordAutomaton {
  const vocabulary = new Map<string, number>();
  const states: State[] = [newState(0)];
  const prefixesAt = new Map<number, { prefix: string; pattern: number }[]>();
  patterns.forEach(({ words, prefix }, pattern) => {
    const body = prefix ? words.slice(0, -1) : words;
    let at = ROOT;
    for (const word of body) {
      let id = vocabulary.get(word);
      if (id === undefined) {
        id = vocabulary.size;
        vocabulary.set(word, id);
      }
      let next = (states[at] as State).next.get(id);
      if (next === undefined) {
        next = states.length;
        states.push(newState((states[at] as State).depth + 1));
        (states[at] as State).next.set(id, next);
      }
      at = next;
    }
    if (prefix) prefixesAt.set(at, [...(prefixesAt.get(at) ?? []), { prefix: words[words.length - 1] as string, pattern }]);
    else (states[at] as State).patterns.push(pattern);
  });
  for (const [at, entries] of prefixesAt) (states[at] as State).prefixes = buildPrefixTrie(entries);
  linkFailures(states);
  const rootPrefixes = patterns.flatMap((pattern) => (pattern.prefix && pattern.words.length === 1 ? [pattern.words[0] as string] : []));
  const shortest = Math.min(...rootPrefixes.map((prefix) => prefix.length));
  const width = Math.min(2, shortest);
  const heads = new Uint8Array(rootPrefixes.length === 0 ? 0 : 0x10000);
  for (const prefix of rootPrefixes) heads[headOf(prefix, width)] = 1;
  const rootGate = { shortest, width, heads };
  return { vocabulary, states, rootGate };
}

/** Breadth-first: each state's longest proper suffix that is also a state, and the nearest reporting one. */
function linkFailures(states: State[]): void {
  const queue: number[] = [];
  for (const child of (states[ROOT] as State).next.values()) queue.push(child);
  for (let head = 0; head < queue.length; head += 1) {
    const parent = states[queue[head] as number] as State;
    for (const [word, child] of parent.next) {
      let fallback = parent.fail;
      while (fallback !== ROOT && !(states[fallback] as State).next.has(word)) fallback = (states[fallback] as State).fail;
      const target = (states[fallback] as State).next.get(word);
      const state = states[child] as State;
      state.fail = target !== undefined && target !== child ? target : ROOT;
      const failState = states[state.fail] as State;
      state.report = state.fail !== ROOT && reports(failState) ? state.fail : failState.report;
      queue.push(child);
    }
  }
}

/**
 * Every place a pattern's words occur in `forms` (a text's word forms), as flat triples
 * [pattern, first word, last word, …] in order of the last word (flat, so the per-word loop allocates nothing).
 */
export function scanWords(automaton: WordAutomaton, forms: readonly string[]): number[] {
  const { vocabulary, states, rootGate } = automaton;
  const rootPrefixes = (states[ROOT] as State).prefixes;
  const spans: number[] = [];
  let at = ROOT;
  for (let i = 0; i < forms.length; i += 1) {
    const word = forms[i] as string;
    if (rootPrefixes !== undefined && word.length >= rootGate.shortest && rootGate.heads[headOf(word, rootGate.width)] === 1) walkPrefixes(rootPrefixes, word, i, i, spans);
    const id = vocabulary.get(word) ?? UNKNOWN_WORD;
    if (id === UNKNOWN_WORD) {
      at = ROOT;
      continue;
    }
    while (at !== ROOT && !(states[at] as State).next.has(id)) at = (states[at] as State).fail;
    at = (states[at] as State).next.get(id) ?? ROOT;
    const current = states[at] as State;
    for (let reporting = reports(current) ? at : current.report; reporting !== -1; reporting = (states[reporting] as State).report) {
      const state = states[reporting] as State;
      const first = i - state.depth + 1;
      for (const pattern of state.patterns) spans.push(pattern, first, i);
      const next = forms[i + 1];
      if (state.prefixes !== undefined && next !== undefined) walkPrefixes(state.prefixes, next, first, i + 1, spans);
    }
  }
  return spans;
}
