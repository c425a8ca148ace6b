import type { DevicePayloadMetrics } from '#shared/contract/entities/metrics.ts';

/**
 * Metrics rows (one per device and period) summed across devices: the periods in order, the payload types seen, and
 * each type's count per period. The periods sort as text, which is time order for every scope's labels
 * (`2024-05-01`, `2024-W18`, `2024-05`, `2024`, `all`).
 */
export function metricsSeries(rows: readonly Pick<DevicePayloadMetrics, 'period' | 'counts'>[]): {
  periods: string[];
  series: { name: string; values: number[] }[];
  totals: { label: string; value: number }[];
} {
  const periods = [...new Set(rows.map((row) => row.period))].sort();
  const types = [...new Set(rows.flatMap((row) => Object.keys(row.counts)))].sort();
  const at = new Map(periods.map((period, index) => [period, index]));
  const series = types.map((name) => ({ name, values: periods.map(() => 0) }));
  const byType = new Map(series.map((line) => [line.name, line]));
  for (const row of rows) {
    const index = at.get(row.period) ?? 0;
    for (const [type, count] of Object.entries(row.counts)) {
      const line = byType.get(type);
      if (line) line.values[index] = (line.values[index] ?? 0) + count;
    }
  }
  const totals = series
    .map((line) => ({ label: line.name, value: line.values.reduce((sum, value) => sum + value, 0) }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
  return { periods, series, totals };
}
