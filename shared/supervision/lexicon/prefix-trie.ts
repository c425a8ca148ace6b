/**
 * The prefix words of phrases (`guarant*`) sharing one body, as a character trie whose edges sit in one open-addressing
 * table of typed arrays: a step is a multiply, a mask and an array read, not a Map look-up per character, which
 * matters because the one-word prefixes are walked for many of a text's words.
 */
export interface PrefixTrie {
  /** Edge slots: parent node and UTF-16 unit (-1 parent for an empty slot), and the child node. */
  readonly parents: Int32Array;
  readonly units: Int32Array;
  readonly children: Int32Array;
  readonly shift: number;
  /** The patterns whose prefix ends at each node (undefined for none). */
  readonly patterns: (readonly number[] | undefined)[];
}

const ROOT = 0;
const EMPTY = -1;

const slotOf = (parent: number, unit: number, shift: number) => Math.imul((parent * 0x10001) ^ unit, 0x9e3779b1) >>> shift;

export function buildPrefixTrie(entries: readonly { readonly prefix: string; readonly pattern: number }[]): PrefixTrie {
  const edges = new Map<string, number>();
  const edgeList: [number, number, number][] = [];
  const patterns: (number[] | undefined)[] = [undefined];
  for (const { prefix, pattern } of entries) {
    let node = ROOT;
    for (let i = 0; i < prefix.length; i += 1) {
      const unit = prefix.charCodeAt(i);
      const key = `${node}:${unit}`;
      let child = edges.get(key);
      if (child === undefined) {
        child = patterns.length;
        patterns.push(undefined);
        edges.set(key, child);
        edgeList.push([node, unit, child]);
      }
      node = child;
    }
    (patterns[node] ??= []).push(pattern);
  }
  let bits = 3;
  while (1 << bits < edgeList.length * 2) bits += 1;
  const size = 1 << bits;
  const trie: PrefixTrie = { parents: new Int32Array(size).fill(EMPTY), units: new Int32Array(size), children: new Int32Array(size), shift: 32 - bits, patterns };
  for (const [parent, unit, child] of edgeList) {
    let slot = slotOf(parent, unit, trie.shift);
    while (trie.parents[slot] !== EMPTY) slot = (slot + 1) & (size - 1);
    trie.parents[slot] = parent;
    trie.units[slot] = unit;
    trie.children[slot] = child;
  }
  return trie;
}

function childOf(trie: PrefixTrie, parent: number, unit: number): number {
  const mask = trie.parents.length - 1;
  for (let slot = slotOf(parent, unit, trie.shift); ; slot = (slot + 1) & mask) {
    const found = trie.parents[slot] as number;
    if (found === EMPTY) return EMPTY;
    if (found === parent && trie.units[slot] === unit) return trie.children[slot] as number;
  }
}

/** Adds each prefix in the trie that `word` starts with to `spans` as [pattern, first, last]. */
export function walkPrefixes(trie: PrefixTrie, word: string, first: number, last: number, spans: number[]): void {
  let node = ROOT;
  for (let i = 0; i < word.length; i += 1) {
    node = childOf(trie, node, word.charCodeAt(i));
    if (node === EMPTY) return;
    const ending = trie.patterns[node];
    if (ending !== undefined) for (const pattern of ending) spans.push(pattern, first, last);
  }
}
