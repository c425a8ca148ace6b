import { formatDuration, formatSeconds } from '../../../lib/format.ts';

/**
 * Spans of a recording as comments carry them (`comment_duration`: seconds from the start, and a length, both to a
 * tenth of a second), and the clock text a reader sees. Pure, so the player, the video timeline and the comment form
 * agree.
 */
export interface Span {
  start_time: number;
  duration: number;
}

/**
 * A moment or a length as a clock ("0:07", "12:30", "1:02:03"): the portal's one duration rule (lib/format.ts), so
 * the player's clock, the details and the lists read a recording's length alike.
 */
export function formatClock(seconds: number): string {
  return formatDuration(seconds);
}

/** "0:06.2 to 0:09.1 (2.9 s)": to the tenth a span is kept to. */
export function describeSpan(span: Span): string {
  const tenths = { tenths: true };
  return `${formatDuration(span.start_time, tenths)} to ${formatDuration(span.start_time + span.duration, tenths)} (${formatSeconds(span.duration)})`;
}

/** Seconds to the nearest tenth, as an exact decimal the contract accepts (6.2, not 6.200000000000001). */
export const toTenths = (seconds: number) => Math.round(seconds * 10) / 10;

/**
 * The span a selection from `start` to `end` seconds stands for: the drawn region to the nearest tenth of a second
 * (what the contract keeps), at least a tenth long, inside the recording when its length is known. Rounding each end
 * to its nearest tenth, never outwards, keeps a drawn 6.03 to 9.02 s as 6 to 9 s (whole seconds made it 6 to 10).
 */
export function spanOf(start: number, end: number, length?: number): Span {
  const last = length !== undefined && Number.isFinite(length) && length > 0 ? toTenths(length) : undefined;
  const within = (seconds: number) => Math.max(0, last === undefined ? seconds : Math.min(seconds, last));
  let from = toTenths(within(Math.min(start, end)));
  let to = toTenths(within(Math.max(start, end)));
  if (to - from < 0.1) {
    // A click rather than a drag: a tenth from where it was, moved back from the very end.
    to = toTenths(from + 0.1);
    if (last !== undefined && to > last) {
      to = last;
      from = toTenths(Math.max(0, last - 0.1));
    }
  }
  return { start_time: from, duration: toTenths(to - from) };
}

/** Peaks as stored (0 to 255 of full scale) as the player draws them (0 to 1). */
export function peaksToUnit(peaks: readonly number[]): number[] {
  return peaks.map((peak) => Math.min(1, Math.max(0, peak / 255)));
}
