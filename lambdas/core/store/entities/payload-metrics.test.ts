import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readPayloadMetrics, toDevicePayloadMetrics } from './payload-metrics.ts';

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
