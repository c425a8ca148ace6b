import { describe, expect, it } from 'vitest';
import { capacityMetricLine, reportCapacity } from './capacity-report.ts';
import { createLogger } from './logger.ts';
import type { CapacityTotals } from './ports/capacity-meter.ts';

const totals: CapacityTotals = { readUnits: 1.5, writeUnits: 2, itemsRead: 12, bytesRead: 9_000, itemsWritten: 1, bytesWritten: 300, calls: 3, failedCalls: 0 };

describe('capacity report', () => {
  it('logs one debug line per request with the units, items and bytes, and no metric line outside AWS', () => {
    const lines: string[] = [];
    const metrics: string[] = [];
    const logger = createLogger({ level: 'debug', sink: (line) => lines.push(line) });
    reportCapacity({ config: { VERITY_MODE: 'local' }, logger }, { endpoint: 'client.devices.list' }, totals, { requestId: 'r-1', metricSink: (line) => metrics.push(line) });
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({
        level: 'debug',
        message: 'capacity',
        endpoint: 'client.devices.list',
        request_id: 'r-1',
        read_units: 1.5,
        write_units: 2,
        items_read: 12,
        bytes_read: 9_000,
        items_written: 1,
        calls: 3,
      }),
    ]);
    expect(metrics).toEqual([]);
  });

  it('writes an EMF line in AWS: the units and items as metrics by endpoint or job', () => {
    const metrics: string[] = [];
    const logger = createLogger({ level: 'info', sink: () => undefined });
    reportCapacity({ config: { VERITY_MODE: 'aws' }, logger }, { job: 'retention' }, totals, { metricSink: (line) => metrics.push(line), now: new Date(0) });
    expect(metrics).toHaveLength(1);
    const line = JSON.parse(metrics[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({ Job: 'retention', ReadCapacityUnits: 1.5, WriteCapacityUnits: 2, ItemsRead: 12, ItemsWritten: 1 });
    expect(line._aws).toEqual({
      Timestamp: 0,
      CloudWatchMetrics: [
        {
          Namespace: 'Verity/Capacity',
          Dimensions: [['Job']],
          Metrics: ['ReadCapacityUnits', 'WriteCapacityUnits', 'ItemsRead', 'ItemsWritten'].map((Name) => ({ Name, Unit: 'Count' })),
        },
      ],
    });
    expect(JSON.parse(capacityMetricLine({ endpoint: 'client.dashboard.get' }, totals, new Date(0)))).toMatchObject({ Endpoint: 'client.dashboard.get' });
  });
});
