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
  visit: (occurrence: Occurrence, partner: Occurrence) => void,
): void {
  let after = 0;
  let before = -1;
  for (const occurrence of own) {
    while (after < others.length && (others[after] as Occurrence).first <= occurrence.last) after += 1;
    while (before + 1 < others.length && (others[before + 1] as Occurrence).last < occurrence.first) before += 1;
    const next = others[after];
    if (next !== undefined && next.first - occurrence.last - 1 <= distance) visit(occurrence, next);
    const previous = before >= 0 ? others[before] : undefined;
    if (previous !== undefined && occurrence.first - previous.last - 1 <= distance) visit(occurrence, previous);
  }
}

/** The occurrences of either phrase that have a partner near enough: what a NEAR hit marks in the text. */
export function nearParts(first: readonly Occurrence[], second: readonly Occurrence[], distance: number): Occurrence[] {
  const parts = new Set<Occurrence>();
  visitNearestPartners(first, second, distance, (occurrence) => parts.add(occurrence));
  visitNearestPartners(second, first, distance, (occurrence) => parts.add(occurrence));
  return [...parts];
}

/** For an Ignore term: each pair's whole stretch, from the earlier phrase's start to the later one's end. */
export function nearStretches(first: readonly Occurrence[], second: readonly Occurrence[], distance: number): { start: number; end: number }[] {
  const stretches: { start: number; end: number }[] = [];
  visitNearestPartners(first, second, distance, (occurrence, partner) =>
    stretches.push({ start: Math.min(occurrence.start, partner.start), end: Math.max(occurrence.end, partner.end) }),
  );
  return stretches;
}
