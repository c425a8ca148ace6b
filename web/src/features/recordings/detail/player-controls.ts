import type { Span } from './spans.ts';

/** What the comments ask of a player: play a span, read the playhead. */
export interface PlayerControls {
  playSpan: (span: Span) => void;
  /** Seconds from the start. */
  playhead: () => number;
}
