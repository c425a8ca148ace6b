/**
 * Rows that are not records but the absence of one, shown in a list where the record would have been: a call the
 * phone's call log saw that no recording captured ("Missing call: +44 …, outgoing, 3:00, not recorded"). The list
 * that shows them (recordings) and the feature that knows them (completeness) meet here, as neither may import the
 * other. A gap row only says what the completeness entry says.
 */
export interface GapRow {
  /** Unique among the list's rows (the entry's reference). */
  gap_key: string;
  /** When the call or message started (ISO). */
  time: string;
  /** The whole row in words. */
  text: string;
  /** The phone and its message thread: a missing message is placed within its thread when the thread is shown. */
  device_reference?: string | undefined;
  thread_id?: string | undefined;
}

export function isGapRow(row: object): row is GapRow {
  return 'gap_key' in row;
}

const timeOf = (iso: string | undefined): number | undefined => {
  if (iso === undefined) return undefined;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : time;
};

/**
 * The gaps placed among a list's rows (newest first) where their records would have been: before the first row (of
 * the same thread, when `sameGroup` finds one shown) that is older, else after the last such row. While the list has
 * more pages (`hasMore`), a gap older than every loaded row is held back: its place is on a page not loaded yet, and
 * showing it at the end would say nothing was recorded between.
 */
export function interleaveGaps<R extends object>(
  rows: readonly R[],
  gaps: readonly GapRow[],
  options: { timeOfRow: (row: R) => string | undefined; hasMore: boolean; sameGroup?: (row: R, gap: GapRow) => boolean },
): (R | GapRow)[] {
  const loaded = rows.map((row) => timeOf(options.timeOfRow(row))).filter((time) => time !== undefined);
  const oldest = loaded.length === 0 ? undefined : Math.min(...loaded);
  const shown = gaps
    .filter((gap) => timeOf(gap.time) !== undefined)
    .filter((gap) => !options.hasMore || (oldest !== undefined && (timeOf(gap.time) ?? 0) >= oldest))
    .sort((a, b) => (timeOf(b.time) ?? 0) - (timeOf(a.time) ?? 0) || a.gap_key.localeCompare(b.gap_key));
  const result: (R | GapRow)[] = [...rows];
  for (const gap of shown) {
    const at = timeOf(gap.time) ?? 0;
    const rowIndexes = result.flatMap((row, index) => (isGapRow(row) ? [] : [index]));
    const members = options.sameGroup === undefined ? [] : rowIndexes.filter((index) => options.sameGroup?.(result[index] as R, gap) === true);
    const pool = members.length > 0 ? members : rowIndexes;
    const older = pool.find((index) => {
      const time = timeOf(options.timeOfRow(result[index] as R));
      return time !== undefined && time < at;
    });
    let position = older ?? (pool.length > 0 ? (pool[pool.length - 1] ?? 0) + 1 : result.length);
    // After gaps already placed there that are newer (or as new): the gaps keep newest-first order among themselves.
    while (position < result.length) {
      const next = result[position];
      if (next === undefined || !isGapRow(next) || (timeOf(next.time) ?? 0) < at) break;
      position += 1;
    }
    result.splice(position, 0, gap);
  }
  return result;
}
