import { describe, expect, it } from 'vitest';
import { metricsSeries } from './metrics-series.ts';

describe('metricsSeries', () => {
  it('sums devices per period and payload type, periods in time order', () => {
    const result = metricsSeries([
      { period: '2026-11-21', counts: { SMS: 3 } },
      { period: '2026-11-20', counts: { Call: 1, Interview: 1 } },
      { period: '2026-11-20', counts: { Call: 2 } },
    ]);
    expect(result.periods).toEqual(['2026-11-20', '2026-11-21']);
    expect(result.series).toEqual([
      { name: 'Call', values: [3, 0] },
      { name: 'Interview', values: [1, 0] },
      { name: 'SMS', values: [0, 3] },
    ]);
    expect(result.totals).toEqual([
      { label: 'Call', value: 3 },
      { label: 'SMS', value: 3 },
      { label: 'Interview', value: 1 },
    ]);
  });

  it('is empty for no rows', () => {
    expect(metricsSeries([])).toEqual({ periods: [], series: [], totals: [] });
  });
});
