import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readTelemetry, telemetryToItems, toDeviceTelemetry, type TelemetryItem } from './telemetry.ts';

const report: TelemetryItem = {
  client: 'acme',
  device_reference: 'dev-1',
  received_at: '2026-01-02T03:04:06.000Z',
  collected_at: '2026-01-02T03:04:05.000Z',
  health: { battery_level: 80, is_charging: false },
  vendor_field: 'kept',
};

describe('telemetry item', () => {
  it('writes the latest and the history item, and reads back the open report without the keys', () => {
    const [latest, history] = telemetryToItems('acme', report, 'r1');
    expect(latest).toMatchObject(keys.telemetry.latest('acme', 'dev-1'));
    expect(history).toMatchObject(keys.telemetry.history('acme', 'dev-1', report.received_at, 'r1'));
    expect(toDeviceTelemetry(readTelemetry(latest))).toEqual(report);
    expect(toDeviceTelemetry(readTelemetry(history))).toEqual(report);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const [latest] = telemetryToItems('acme', report, 'r1');
    const broken = { ...latest, health: { battery_level: 'full' } };
    expect(() => readTelemetry(broken)).toThrow(InternalError);
    expect(() => readTelemetry(broken)).toThrow(/Telemetry item .* health\.battery_level: /);
  });
});
