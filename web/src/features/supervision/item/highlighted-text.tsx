import { Text } from '@mantine/core';
import type { TextSpan } from '#shared/contract/entities/supervision.ts';
import { highlightSegments } from '#shared/supervision/lexicon/highlight.ts';

/**
 * A text with the matched spans marked (`<mark>`), from the hits' offsets: the item keeps only offsets, never the
 * text, so the marks are laid on the text as read now. Overlapping matches of several terms are one mark.
 */
export function HighlightedText({ text, matches, label }: { text: string; matches: readonly TextSpan[]; label: string }) {
  const segments = highlightSegments(text, matches);
  return (
    <Text component="blockquote" m={0} aria-label={label} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {/* The pieces never change order for one text: the index is a stable key. */}
      {segments.map((segment, index) =>
        segment.marked ? (
          <mark key={index}>{segment.text}</mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </Text>
  );
}
