/**
 * Spans of a recording as comments carry them (`comment_duration`: whole seconds from the start, and a length), and
 * the clock text a reader sees. Pure, so the player, the video timeline and the comment form agree.
 */
export interface Span {
  start_time: number;
  duration: number;
}

/** "0:07", "12:30", "1:02:03". */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** "0:03 to 0:07 (4 s)" */
export function describeSpan(span: Span): string {
  return `${formatClock(span.start_time)} to ${formatClock(span.start_time + span.duration)} (${span.duration} s)`;
}

/**
 * The span a selection from `start` to `end` seconds stands for: whole seconds (the contract's unit), at least one
 * second long, inside the recording when its length is known.
 */
export function spanOf(start: number, end: number, length?: number): Span {
  const from = Math.max(0, Math.floor(Math.min(start, end)));
  let to = Math.max(from + 1, Math.ceil(Math.max(start, end)));
  if (length !== undefined && Number.isFinite(length) && length > 0) {
    const last = Math.ceil(length);
    to = Math.min(to, last);
    if (to <= from) return { start_time: Math.max(0, last - 1), duration: 1 };
  }
  return { start_time: from, duration: to - from };
}

/** Peaks as stored (0 to 255 of full scale) as the player draws them (0 to 1). */
export function peaksToUnit(peaks: readonly number[]): number[] {
  return peaks.map((peak) => Math.min(1, Math.max(0, peak / 255)));
}
