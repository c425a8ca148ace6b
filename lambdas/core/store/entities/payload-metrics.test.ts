import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readPayloadMetrics, readPayloadTotals, toDevicePayloadMetrics } from './payload-metrics.ts';

const item = {
  ...keys.metrics.item('acme', 'Daily', '2026-01-02', 'dev-1'),
  entity: 'PayloadMetrics',
  device_reference: 'dev-1',
  scope: 'Daily',
  period: '2026-01-02',
  group: 'North',
  n_Call: 3,
  n_SMS: -1,
  last_occurrence: '2026-01-02T10:00:00.000Z',
};

describe('payload metrics item', () => {
  it('reads the labels and the per-type counters, and shows them as the contract does (a drifted count as 0)', () => {
    const stored = readPayloadMetrics(item);
    expect(stored).toMatchObject({ device_reference: 'dev-1', scope: 'Daily', period: '2026-01-02', group: 'North', counts: { Call: 3, SMS: -1 } });
    expect(toDevicePayloadMetrics(stored)).toEqual({
      device_reference: 'dev-1',
      scope: 'Daily',
      period: '2026-01-02',
      counts: { Call: 3, SMS: 0 },
      last_occurrence: '2026-01-02T10:00:00.000Z',
    });
  });

  it('refuses a bucket of an unknown scope or with a counter that is not a number, naming the path', () => {
    expect(() => readPayloadMetrics({ ...item, scope: 'Hourly' })).toThrow(InternalError);
    expect(() => readPayloadMetrics({ ...item, scope: 'Hourly' })).toThrow(/PayloadMetrics item .*scope: /);
    expect(() => readPayloadMetrics({ ...item, n_Call: '3' })).toThrow(/PayloadMetrics item .*n_Call: /);
  });
});

describe('payload totals item', () => {
  it('reads the tenant’s payload count and its per-type counters, 0 before the first payload', () => {
    const totals = { ...keys.metrics.totals('acme'), entity: 'MetricTotals', payloads: 3, n_Call: 2, n_Photo: 1 };
    expect(readPayloadTotals(totals)).toEqual({ payloads: 3, counts: { Call: 2, Photo: 1 } });
    expect(readPayloadTotals({ ...keys.metrics.totals('acme'), entity: 'MetricTotals' })).toEqual({ payloads: 0, counts: {} });
  });

  it('refuses a count that is not a number, naming the path', () => {
    const totals = { ...keys.metrics.totals('acme'), entity: 'MetricTotals', payloads: '3' };
    expect(() => readPayloadTotals(totals)).toThrow(InternalError);
    expect(() => readPayloadTotals(totals)).toThrow(/MetricTotals item .*payloads: /);
    expect(() => readPayloadTotals({ ...totals, payloads: 3, n_Call: 'x' })).toThrow(/MetricTotals item .*n_Call: /);
  });
});
