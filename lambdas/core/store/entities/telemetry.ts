import * as z from 'zod';
import { DeviceTelemetry } from '#shared/contract/entities/telemetry.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { withoutKeys } from '../items.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A device's telemetry report, stored twice in the device's partition: as its latest (`keys.telemetry.latest`,
 * overwritten) and in its history by receive time (`keys.telemetry.history`). Decision: the report stays open, as
 * the contract's `DeviceTelemetry` is (newer app versions add fields; each bounded when it arrived), so the item's
 * keys are dropped before the open schema reads it, or they would pass through as report fields.
 */
export const TelemetryItem = z.preprocess((item) => withoutKeys(item as TableItem), DeviceTelemetry);
export type TelemetryItem = z.infer<typeof TelemetryItem>;

export function readTelemetry(item: TableItem): TelemetryItem {
  return readItem('Telemetry', TelemetryItem, item);
}

/** The report's two items: the device's latest and its place in the history (`id` makes the receive time unique). */
export function telemetryToItems(client: string, report: TelemetryItem, id: string): [latest: TableItem, history: TableItem] {
  return [
    { ...report, ...keys.telemetry.latest(client, report.device_reference) },
    { ...report, ...keys.telemetry.history(client, report.device_reference, report.received_at, id) },
  ];
}

/** The report as the API answers it. */
export function toDeviceTelemetry(stored: TelemetryItem): DeviceTelemetry {
  return stored;
}
