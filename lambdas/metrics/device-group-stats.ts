import type { Service } from '#shared/constants/devices.ts';
import type { Dependencies } from '../core/dependencies.ts';
import type { TransactOperation } from '../core/ports/table-store.ts';
import { readGroup } from '../core/store/entities/group.ts';
import { keys } from '../core/store/keys.ts';
import { groupStatsOperation, type GroupStatsDelta, type readGroupStats } from './group-stats.ts';

/**
 * The devices' part of group stats (docs/decisions.md "Licence use"): a device that is not deactivated counts in its
 * group's `actual_devices`, and in `services.<service>.active_devices` for each service enabled on it (the services
 * its user had when it last authenticated, or the legacy platform's). Every device write (authentication,
 * deactivation, migration import) adds the difference between the device before and after in its own transaction,
 * so the group's counts move with the item that they count.
 */

/** The device fields its group's stats depend on. */
export interface DeviceStatsFields {
  group?: string | undefined;
  is_deactivated?: boolean | undefined;
  services?: readonly Service[] | undefined;
}

/** What one device adds to its group's stats (undefined when it adds nothing). */
export function deviceContribution(device: DeviceStatsFields | undefined): { group: string; delta: GroupStatsDelta } | undefined {
  if (device === undefined || device.is_deactivated === true || device.group === undefined || device.group.length === 0) return undefined;
  const services: NonNullable<GroupStatsDelta['services']> = {};
  for (const service of new Set(device.services ?? [])) services[service] = { active_devices: 1 };
  return { group: device.group, delta: { actual_devices: 1, services } };
}

/** Per group touched, the change a device moving from `before` to `after` makes (zeros left out, groups netted). */
export function deviceGroupStatsChanges(before: DeviceStatsFields | undefined, after: DeviceStatsFields | undefined): Map<string, GroupStatsDelta> {
  const changes = new Map<string, GroupStatsDelta>();
  const apply = (part: ReturnType<typeof deviceContribution>, sign: 1 | -1) => {
    if (part === undefined) return;
    const into = changes.get(part.group) ?? { actual_devices: 0, services: {} };
    into.actual_devices = (into.actual_devices ?? 0) + (part.delta.actual_devices ?? 0) * sign;
    for (const [service, counters] of Object.entries(part.delta.services ?? {})) {
      const target = ((into.services ??= {})[service as Service] ??= {});
      target.active_devices = (target.active_devices ?? 0) + (counters?.active_devices ?? 0) * sign;
    }
    changes.set(part.group, into);
  };
  apply(deviceContribution(before), -1);
  apply(deviceContribution(after), 1);
  return changes;
}

/**
 * Leaves out of a delta what the group's stored counters cannot take: every decrement below zero. Decision (as
 * before this module): stats never refuse a phone's authentication or a deactivation; a counter that drifted is
 * repaired by the recount job (lambdas/jobs/counters-recount.ts), not by locking a device out.
 */
export function withinStored(delta: GroupStatsDelta, stored: ReturnType<typeof readGroupStats>): GroupStatsDelta {
  const keep = (value: number | undefined, current: number) => (value === undefined || value >= 0 || current + value >= 0 ? value : undefined);
  const services: NonNullable<GroupStatsDelta['services']> = {};
  for (const [service, counters] of Object.entries(delta.services ?? {})) {
    const value = keep(counters?.active_devices, stored.services[service as Service]?.active_devices ?? 0);
    if (value !== undefined && value !== 0) services[service as Service] = { active_devices: value };
  }
  const actual = keep(delta.actual_devices, stored.actual_devices);
  return { ...(actual === undefined ? {} : { actual_devices: actual }), services };
}

/**
 * The device's group-stats change as transaction steps: each touched group read consistently; a group that no longer
 * exists is left out (its ADD would fail the write), and so is a decrement below what the group holds.
 */
export async function deviceGroupStatsOperations(
  deps: Pick<Dependencies, 'table'>,
  client: string,
  before: DeviceStatsFields | undefined,
  after: DeviceStatsFields | undefined,
): Promise<TransactOperation[]> {
  const operations: TransactOperation[] = [];
  for (const [group, delta] of deviceGroupStatsChanges(before, after)) {
    const { pk, sk } = keys.group.item(client, group);
    const item = await deps.table.get({ pk, sk }, { consistent: true });
    if (item === undefined) continue;
    const operation = groupStatsOperation(client, group, withinStored(delta, readGroup(item).stats));
    if (operation !== undefined) operations.push(operation);
  }
  return operations;
}
