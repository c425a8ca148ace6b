/** A piece of a text, marked when a match covers it. */
export interface HighlightSegment {
  readonly text: string;
  readonly marked: boolean;
}

/**
 * Splits a text into plain and marked pieces for display: matches (UTF-16 offsets, end exclusive) are clamped to the
 * text, empty ones dropped, and overlapping or touching ones merged, so the pieces joined give back the text exactly.
 */
export function highlightSegments(text: string, matches: readonly { readonly start: number; readonly end: number }[]): HighlightSegment[] {
  const spans = matches
    .map(({ start, end }) => ({ start: Math.max(0, Math.min(start, text.length)), end: Math.max(0, Math.min(end, text.length)) }))
    .filter(({ start, end }) => Number.isInteger(start) && Number.isInteger(end) && start < end)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const segments: HighlightSegment[] = [];
  let at = 0;
  let index = 0;
  while (index < spans.length) {
    const { start } = spans[index] as { start: number; end: number };
    let end = (spans[index] as { start: number; end: number }).end;
    for (index += 1; index < spans.length && (spans[index] as { start: number }).start <= end; index += 1) {
      end = Math.max(end, (spans[index] as { end: number }).end);
    }
    if (start > at) segments.push({ text: text.slice(at, start), marked: false });
    segments.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), marked: false });
  return segments;
}
