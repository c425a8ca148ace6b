import type { Occurrence } from './phrase-fit.ts';

/**
 * `A NEAR/n B`: an occurrence of A and one of B that do not overlap and have at most n words between them, in either
 * order. Both lists come in text order, and all occurrences of one phrase have the same number of words, so the
 * nearest partner on each side is found with two pointers that only move forward: linear in both lists.
 */
function visitNearestPartners(
  own: readonly Occurrence[],
  others: readonly Occurrence[],
  distance: number,
  visit: (index: number, partner: Occurrence) => void,
): void {
  let after = 0;
  let before = -1;
  own.forEach((occurrence, index) => {
    while (after < others.length && (others[after] as Occurrence).first <= occurrence.last) after += 1;
    while (before + 1 < others.length && (others[before + 1] as Occurrence).last < occurrence.first) before += 1;
    const next = others[after];
    if (next !== undefined && next.first - occurrence.last - 1 <= distance) visit(index, next);
    const previous = before >= 0 ? others[before] : undefined;
    if (previous !== undefined && occurrence.first - previous.last - 1 <= distance) visit(index, previous);
  });
}

/** Which of `own` have a partner in `others` near enough. */
function withPartner(own: readonly Occurrence[], others: readonly Occurrence[], distance: number): Uint8Array {
  const kept = new Uint8Array(own.length);
  visitNearestPartners(own, others, distance, (index) => (kept[index] = 1));
  return kept;
}

/** The occurrences of either phrase that have a partner near enough, in text order: what a NEAR hit marks. */
export function nearParts(first: readonly Occurrence[], second: readonly Occurrence[], distance: number): Occurrence[] {
  const firstKept = withPartner(first, second, distance);
  const secondKept = withPartner(second, first, distance);
  const parts: Occurrence[] = [];
  let i = 0;
  let j = 0;
  // Merge the two lists (each already in text order) so the result needs no sort.
  while (i < first.length || j < second.length) {
    const a = first[i];
    const b = second[j];
    if (b === undefined || (a !== undefined && (a.start < b.start || (a.start === b.start && a.end <= b.end)))) {
      if (firstKept[i] === 1) parts.push(a as Occurrence);
      i += 1;
    } else {
      if (secondKept[j] === 1) parts.push(b);
      j += 1;
    }
  }
  return parts;
}

/** For an Ignore term: each pair's whole stretch, from the earlier phrase's start to the later one's end. */
export function nearStretches(first: readonly Occurrence[], second: readonly Occurrence[], distance: number): { start: number; end: number }[] {
  const stretches: { start: number; end: number }[] = [];
  visitNearestPartners(first, second, distance, (index, partner) => {
    const occurrence = first[index] as Occurrence;
    stretches.push({ start: Math.min(occurrence.start, partner.start), end: Math.max(occurrence.end, partner.end) });
  });
  return stretches;
}
