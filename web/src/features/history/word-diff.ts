/**
 * The words two texts differ by, for a long text field (a comment's wording) shown side by side: the earlier text with
 * its removed words marked, the later one with its added words marked. A longest common subsequence over words and the
 * spaces between them (no dependency: package.json has no diff library, and this is the whole of what is needed).
 */

export type WordChange = 'same' | 'added' | 'removed';

/** A run of text that is in both texts (`same`), only in the later one (`added`) or only in the earlier (`removed`). */
export interface WordPart {
  change: WordChange;
  text: string;
}

/**
 * Beyond this many word pairs the table would be too large to build in a browser tab (two 4000-character comments are
 * about 1.4 million): the texts are then shown as one removed and one added run, which is still true, only coarser.
 */
const MAX_CELLS = 4_000_000;

/** Words and the white space between them, in order; joining them gives the text back exactly. */
export function tokensOf(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/** Adjacent parts of one kind joined, so a run of changed words reads as one mark. */
function merged(parts: readonly WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last !== undefined && last.change === part.change) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

/**
 * The parts of both texts in reading order: `same` parts once, `removed` ones from `before`, `added` ones from `after`.
 * Joining the `same` and `removed` parts gives `before` back; the `same` and `added` parts give `after`.
 */
export function wordDiff(before: string, after: string): WordPart[] {
  if (before === after) return before === '' ? [] : [{ change: 'same', text: before }];
  const a = tokensOf(before);
  const b = tokensOf(after);
  if (a.length * b.length > MAX_CELLS) {
    return [...(before === '' ? [] : [{ change: 'removed' as const, text: before }]), ...(after === '' ? [] : [{ change: 'added' as const, text: after }])];
  }
  // lengths[i][j]: the longest common run of a[i..] and b[j..], one row per token of `before`.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i * width + j] =
        a[i] === b[j] ? (lengths[(i + 1) * width + j + 1] as number) + 1 : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
    }
  }
  const parts: WordPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ change: 'same', text: a[i] as string });
      i += 1;
      j += 1;
    } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) {
      parts.push({ change: 'removed', text: a[i] as string });
      i += 1;
    } else {
      parts.push({ change: 'added', text: b[j] as string });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) parts.push({ change: 'removed', text: a[i] as string });
  for (; j < b.length; j += 1) parts.push({ change: 'added', text: b[j] as string });
  return merged(withSpacesJoined(parts));
}

/**
 * A lone space kept between two changed words ("quick brown" → "slow red": the space is common) would split one
 * change into two marks; it is counted as changed on both sides instead, so the phrase reads as one replaced run.
 */
function withSpacesJoined(parts: readonly WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  parts.forEach((part, index) => {
    const previous = parts[index - 1];
    const next = parts[index + 1];
    const between = part.change === 'same' && /^\s+$/.test(part.text) && previous !== undefined && next !== undefined && previous.change !== 'same' && next.change !== 'same';
    if (between) {
      out.push({ change: 'removed', text: part.text }, { change: 'added', text: part.text });
    } else {
      out.push(part);
    }
  });
  // Removed runs before added ones within each changed stretch, so merging yields one removed and one added run.
  return reorderedStretches(out);
}

/** Within each run of changed parts, the removed ones first, then the added ones (each keeps its own order). */
function reorderedStretches(parts: readonly WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  let stretch: WordPart[] = [];
  const flush = () => {
    out.push(...stretch.filter((part) => part.change === 'removed'), ...stretch.filter((part) => part.change === 'added'));
    stretch = [];
  };
  for (const part of parts) {
    if (part.change === 'same') {
      flush();
      out.push(part);
    } else {
      stretch.push(part);
    }
  }
  flush();
  return out;
}

/** One side of the comparison: the earlier text (same and removed parts) or the later (same and added parts). */
export function sideOf(parts: readonly WordPart[], side: 'before' | 'after'): WordPart[] {
  const dropped: WordChange = side === 'before' ? 'added' : 'removed';
  return merged(parts.filter((part) => part.change !== dropped));
}
