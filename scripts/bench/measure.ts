/** Helpers shared by the bench modules: one timed HTTP call, a median, a printed table. */

/** Milliseconds of one authenticated GET, body read; throws on a non-2xx answer. */
export async function timed(url: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return elapsed;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * Median times of two URLs (a small and a large tenant), interleaved and alternating which goes first so machine noise
 * and warm or cold moments hit both sizes alike; a few warm-up rounds first (handler import, JWKS, caches).
 */
export async function interleavedMedians(
  small: { url: string; token: string },
  large: { url: string; token: string },
  samples: number,
): Promise<{ small: number; large: number }> {
  for (let round = 0; round < 5; round += 1) await Promise.all([timed(small.url, small.token), timed(large.url, large.token)]);
  const times = { small: [] as number[], large: [] as number[] };
  for (let round = 0; round < samples; round += 1) {
    if (round % 2 === 0) {
      times.small.push(await timed(small.url, small.token));
      times.large.push(await timed(large.url, large.token));
    } else {
      times.large.push(await timed(large.url, large.token));
      times.small.push(await timed(small.url, small.token));
    }
  }
  return { small: median(times.small), large: median(times.large) };
}

/** The table as text: a header, a rule, the rows, columns padded to their widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] as number)).join('  ').trimEnd();
  return `${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}\n${rows.map(line).join('\n')}`;
}
