import * as z from 'zod';
import { DeviceTelemetry } from '#shared/contract/entities/telemetry.ts';
import { onFirstUse } from '../../on-first-use.ts';
import { withoutKeys } from '../items.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { devicePartition, deviceTimedList, type TimedList } from './device.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named index: the tenant's latest reports, one per device that has reported, in device order. */
export const TELEMETRY_INDEXES = { latestByTenant: 'gsi1' } as const;

const latestPartition = (client: string) => `${tenantPrefix(client)}TELEMETRY#LATEST`;

/**
 * Telemetry, in the device's partition: the latest report (`TELEMETRY#LATEST`, one GetItem; also on the tenant's
 * latest-reports index, so the fleet list reads the devices that have reported, never the whole fleet) and every
 * report by receive time (`TELEMETRY#AT#<received ISO>#<id>`, newest first with a range).
 */
export const telemetryKeys = {
  latest: (client: string, deviceReference: string): ItemKeys => ({
    pk: devicePartition(client, deviceReference),
    sk: 'TELEMETRY#LATEST',
    entity: ENTITY.telemetry,
    ...onIndex[TELEMETRY_INDEXES.latestByTenant](latestPartition(client), part(deviceReference)),
  }),
  /** The tenant's latest reports by device reference (`GET telemetry`). */
  listLatest: (client: string): ListKey => list(TELEMETRY_INDEXES.latestByTenant, latestPartition(client)),
  history: (client: string, deviceReference: string, receivedAt: Date | string, id: string): ItemKeys => ({
    pk: devicePartition(client, deviceReference),
    sk: `TELEMETRY#AT#${timeSort(receivedAt, id)}`,
    entity: ENTITY.telemetry,
  }),
  historyOf: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'TELEMETRY#AT#'),
};

/**
 * A device's telemetry report, stored twice in the device's partition: as its latest (`telemetryKeys.latest`,
 * overwritten) and in its history by receive time (`telemetryKeys.history`). Decision: the report stays open, as
 * the contract's `DeviceTelemetry` is (newer app versions add fields; each bounded when it arrived), so the item's
 * keys are dropped before the open schema reads it, or they would pass through as report fields.
 */
export const telemetryItemSchema = /* @__PURE__ */ onFirstUse(() => z.preprocess((item) => withoutKeys(item as TableItem), DeviceTelemetry));
export type TelemetryItem = z.infer<ReturnType<typeof telemetryItemSchema>>;

export function readTelemetry(item: TableItem): TelemetryItem {
  return readItem('Telemetry', telemetryItemSchema(), item);
}

/** The report's two items: the device's latest and its place in the history (`id` makes the receive time unique). */
export function telemetryToItems(client: string, report: TelemetryItem, id: string): [latest: TableItem, history: TableItem] {
  return [
    { ...report, ...telemetryKeys.latest(client, report.device_reference) },
    { ...report, ...telemetryKeys.history(client, report.device_reference, report.received_at, id) },
  ];
}

/** The report as the API answers it. */
export function toDeviceTelemetry(stored: TelemetryItem): DeviceTelemetry {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const telemetryModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.telemetry,
  title: 'Telemetry report (the latest, and each by receive time)',
  module: 'telemetry.ts',
  indexes: TELEMETRY_INDEXES,
  items: [
    { when: 'the latest (overwritten)', example: () => telemetryKeys.latest(EXAMPLE_CLIENT, '<device_reference>') },
    { when: 'history', example: () => telemetryKeys.history(EXAMPLE_CLIENT, '<device_reference>', '<received_at>', '<id>') },
  ],
  accessPatterns: [
    {
      name: 'The tenant\'s latest reports, in device order',
      serves: '`GET telemetry` without a group, once the tenant is indexed (the account\'s `telemetry_indexed_at`; until then, and with a group, a page of the device list and a BatchGet of its latest reports)',
      builders: ['keys.telemetry.listLatest'],
      example: () => telemetryKeys.listLatest(EXAMPLE_CLIENT),
    },
    { name: 'Latest telemetry of a page of devices', serves: '`GET telemetry` of a group (BatchGet); the silent-devices check', builders: ['keys.telemetry.latest'], example: () => telemetryKeys.latest(EXAMPLE_CLIENT, '<device_reference>') },
    { name: 'A device\'s telemetry history, newest first', serves: 'device telemetry history (time range: key condition)', builders: ['keys.telemetry.historyOf'], example: () => telemetryKeys.historyOf(EXAMPLE_CLIENT, '<device_reference>') },
  ],
}));
