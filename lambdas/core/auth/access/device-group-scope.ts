import * as z from 'zod';
import type { TableItem, TableStore } from '../../ports/table-store.ts';
import { readDeviceHolder } from '../../store/entities/device.ts';
import { claimItem } from '../../store/entities/read-item.ts';
import { keys } from '../../store/keys.ts';
import { perItem, type BatchFilter, type ItemFilter } from '../../store/paging.ts';
import { groupNameOf, type GroupScope } from './group-scope.ts';

/**
 * Group scope of the records that take their group from their device: device logs, telemetry reports, GPS fixes and
 * device activities (docs/decisions.md "Group scope of device data"). The spec gives logs, telemetry and GPS no group
 * of their own; the `group` each record keeps is its device's group when it was written, absent when the device had
 * none yet, and out of date once the device moves. So the device's CURRENT group governs both who sees a record and
 * which records a `group` filter names: the group of each page's devices is read in one BatchGet (at most 100 keys
 * each, every device once per request), as group facts are. A record whose device is gone (or that names none) is
 * judged by the group it kept.
 */

/** Only the device a record belongs to: read without the rest, so a record with a damaged body still finds it. */
const RecordDevice = z.object({ device_reference: z.string().min(1) });

/** BatchGet takes at most 100 keys per call. */
const DEVICES_PER_BATCH = 100;

const NO_GROUP = '';

/** The group that governs each record of a batch, in the batch's order ('' for none). */
export type GoverningGroups = (items: readonly TableItem[]) => Promise<string[]>;

/** The governing groups of records of `client`, each device's current group read once for the whole request. */
export function deviceGroupsOf(dependencies: { table: Pick<TableStore, 'batchGet'> }, client: string): GoverningGroups {
  // Device reference to its current group ('' none), or null when the device item does not exist.
  const current = new Map<string, string | null>();

  const load = async (references: readonly string[]): Promise<void> => {
    const missing = [...new Set(references)].filter((reference) => !current.has(reference));
    for (let start = 0; start < missing.length; start += DEVICES_PER_BATCH) {
      const batch = missing.slice(start, start + DEVICES_PER_BATCH);
      const found = await dependencies.table.batchGet(batch.map((reference) => keys.device.key(client, reference)));
      const byPk = new Map(found.map((item) => [item.pk, item]));
      for (const reference of batch) {
        const device = byPk.get(keys.device.key(client, reference).pk);
        current.set(reference, device === undefined ? null : (readDeviceHolder(device).group ?? NO_GROUP));
      }
    }
  };

  return async (items) => {
    const devices = items.map((item) => claimItem(RecordDevice, item)?.device_reference);
    await load(devices.filter((reference): reference is string => reference !== undefined));
    return items.map((item, index) => {
      const reference = devices[index];
      const group = reference === undefined ? undefined : current.get(reference);
      return group === undefined || group === null ? groupNameOf(item) : group;
    });
  };
}

export interface DeviceRecordFilter {
  /** Filters the key cannot express, applied before any device is read. */
  keep?: ItemFilter | undefined;
  /** The `group` filter of the list: only records whose device is in this group now. */
  group?: string | undefined;
}

/**
 * The BatchFilter of a list of records that take their group from their device: `keep`, then the `group` filter and
 * the caller's scope on each record's governing group. Without a group filter and with an unrestricted scope no device
 * is read (undefined stays undefined: nothing to filter).
 */
export function inDeviceScope(
  dependencies: { table: Pick<TableStore, 'batchGet'> },
  client: string,
  scope: GroupScope,
  filter: DeviceRecordFilter = {},
): BatchFilter | undefined {
  const { keep, group } = filter;
  if (scope.unrestricted && group === undefined) return perItem(keep);
  const governing = deviceGroupsOf(dependencies, client);
  return async (items) => {
    const candidates = keep === undefined ? items : items.filter(keep);
    const groups = await governing(candidates);
    const named = candidates.map((item, index) => ({ item, group: groups[index] ?? NO_GROUP })).filter((record) => group === undefined || record.group === group);
    const allowed = await scope.visibleOf([...new Set(named.map((record) => record.group))]);
    return named.filter((record) => allowed.has(record.group)).map((record) => record.item);
  };
}
