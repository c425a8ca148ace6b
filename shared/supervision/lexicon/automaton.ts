/**
 * One Aho-Corasick automaton over WORDS for every word pattern (a phrase's words, whatever symbols the term writes
 * around them: ./phrase-fit.ts) of every policy: the text is read once, word by word, and each word costs one map
 * look-up and amortised O(1) transitions whatever the number of patterns. A pattern whose last
 * word is a prefix (`guarantee of return*`) is stored as its other words (the body) and the prefix in a character
 * trie hung on the body's node; when a body ends at word i, word i+1 is walked through that trie. Since a pattern
 * has at most 10 words, at most 10 nodes report at one word, so the work stays linear in the text plus the matches.
 */

interface PrefixNode {
  readonly next: Map<number, PrefixNode>;
  readonly patterns: number[];
}

interface State {
  readonly next: Map<number, number>;
  readonly depth: number;
  fail: number;
  /** The nearest state on the fail chain that reports something, or -1. */
  report: number;
  /** Patterns (without a prefix word) whose words end here. */
  readonly patterns: number[];
  /** Prefix words of patterns whose body ends here. */
  prefixes: PrefixNode | undefined;
}

/** Where a pattern occurs: its first and last word's index. */
export interface WordSpan {
  readonly pattern: number;
  readonly first: number;
  readonly last: number;
}

const ROOT = 0;
const UNKNOWN_WORD = -1;

export interface WordAutomaton {
  readonly vocabulary: Map<string, number>;
  readonly states: State[];
}

const newState = (depth: number): State => ({ next: new Map(), depth, fail: ROOT, report: -1, patterns: [], prefixes: undefined });

const reports = (state: State) => state.patterns.length > 0 || state.prefixes !== undefined;

function addPrefix(state: State, prefix: string, pattern: number): void {
  state.prefixes ??= { next: new Map(), patterns: [] };
  let node = state.prefixes;
  for (let i = 0; i < prefix.length; i += 1) {
    const unit = prefix.charCodeAt(i);
    let child = node.next.get(unit);
    if (child === undefined) {
      child = { next: new Map(), patterns: [] };
      node.next.set(unit, child);
    }
    node = child;
  }
  node.patterns.push(pattern);
}

/** Builds the automaton; `patterns[i]` is pattern i's words, the last a prefix when `prefix`. */
export function buildAutomaton(patterns: readonly { readonly words: readonly string[]; readonly prefix: boolean }[]): WordAutomaton {
  const vocabulary = new Map<string, number>();
  const states: State[] = [newState(0)];
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
    if (prefix) addPrefix(states[at] as State, words[words.length - 1] as string, pattern);
    else (states[at] as State).patterns.push(pattern);
  });
  linkFailures(states);
  return { vocabulary, states };
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

function walkPrefixes(root: PrefixNode, word: string, found: (pattern: number) => void): void {
  let node: PrefixNode | undefined = root;
  for (let i = 0; i < word.length && node !== undefined; i += 1) {
    node = node.next.get(word.charCodeAt(i));
    if (node !== undefined) for (const pattern of node.patterns) found(pattern);
  }
}

/** Reports every place a pattern's words occur in `forms` (a text's word forms), in order of the last word. */
export function scanWords(automaton: WordAutomaton, forms: readonly string[], found: (span: WordSpan) => void): void {
  const { vocabulary, states } = automaton;
  const rootPrefixes = (states[ROOT] as State).prefixes;
  let at = ROOT;
  for (let i = 0; i < forms.length; i += 1) {
    const word = forms[i] as string;
    if (rootPrefixes !== undefined) walkPrefixes(rootPrefixes, word, (pattern) => found({ pattern, first: i, last: i }));
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
      for (const pattern of state.patterns) found({ pattern, first, last: i });
      const next = forms[i + 1];
      if (state.prefixes !== undefined && next !== undefined) walkPrefixes(state.prefixes, next, (pattern) => found({ pattern, first, last: i + 1 }));
    }
  }
}
