import * as z from 'zod';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import { Group, GroupStats } from '#shared/contract/entities/groups.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

export const groupKeys = {
  item: (client: string, groupReference: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}GROUPS`,
    sk: `GROUP#${part(groupReference)}`,
    entity: ENTITY.group,
  }),
  /** The tenant's groups, or those whose reference starts with `startsWith`. */
  list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}GROUPS`, 'GROUP#', startsWith),
};

/**
 * A tenant's group (`keys.group`): its own attributes (reference, tags, who changed it) and its stats counters.
 *
 * Decision: the counters (spec point 3: device users, expected and actual devices, and per service used licences,
 * expected devices, active devices and active users) are FLAT numeric attributes of the item, not a nested map:
 * DynamoDB's ADD creates a missing top-level number but refuses a nested path whose parent map is missing, and the
 * TableStore port names whole attributes. Flat counters let devices and device users change them with one atomic ADD
 * (lambdas/metrics/group-stats.ts), never by reading and rewriting, and a group PUT never touches them. Reading the
 * item folds them into the contract's `stats`.
 */

export const SERVICE_COUNTERS = ['used_licenses', 'expected_devices', 'active_devices', 'active_users'] as const;
export type ServiceCounter = (typeof SERVICE_COUNTERS)[number];
export const GROUP_COUNTERS = ['device_users', 'expected_devices', 'actual_devices'] as const;
export type GroupCounter = (typeof GROUP_COUNTERS)[number];

/** The item attribute that holds one counter. */
export function statsAttribute(counter: GroupCounter): string;
export function statsAttribute(counter: ServiceCounter, service: Service): string;
export function statsAttribute(counter: string, service?: string): string {
  return service === undefined ? `stats_${counter}` : `stats_svc_${service}_${counter}`;
}

type GroupStatsValue = z.infer<typeof GroupStats>;

/**
 * The spec's stats object from a group item's flat counters (missing or unreadable counters are 0; only services
 * with a counter show). Takes any item, whole or partial: counters are also read from an UpdateItem's answer.
 */
export function readGroupStats(item: Readonly<Record<string, unknown>>): GroupStatsValue {
  const count = (attribute: string) => {
    const value = item[attribute];
    // Never negative on the wire: the write condition prevents it, this guards items written before it existed.
    return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0;
  };
  const services: GroupStatsValue['services'] = {};
  for (const service of SERVICES) {
    const present = SERVICE_COUNTERS.some((counter) => item[statsAttribute(counter, service)] !== undefined);
    if (!present) continue;
    services[service] = {
      used_licenses: count(statsAttribute('used_licenses', service)),
      expected_devices: count(statsAttribute('expected_devices', service)),
      active_devices: count(statsAttribute('active_devices', service)),
      active_users: count(statsAttribute('active_users', service)),
    };
  }
  return {
    device_users: count(statsAttribute('device_users')),
    expected_devices: count(statsAttribute('expected_devices')),
    actual_devices: count(statsAttribute('actual_devices')),
    services,
  };
}

/** The stored attributes: the group's own, and `stats` folded from the flat counters (never stored as such). */
const groupAttributesSchema = /* @__PURE__ */ onFirstUse(() => Group.extend({ stats: GroupStats }));

export const groupItemSchema = /* @__PURE__ */ onFirstUse(() => z.preprocess(
  (item) => (typeof item === 'object' && item !== null ? { ...item, stats: readGroupStats(item as Readonly<Record<string, unknown>>) } : item),
  groupAttributesSchema(),
));
export type GroupItem = z.infer<ReturnType<typeof groupItemSchema>>;

export function readGroup(item: TableItem): GroupItem {
  return readItem('Group', groupItemSchema(), item);
}

/** The group as the API answers it: its attributes with the counters as `stats`. */
export function toGroup(stored: GroupItem): Group {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const groupModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.group,
  title: 'Group',
  module: 'group.ts',
  indexes: {},
  items: [{ example: () => groupKeys.item(EXAMPLE_CLIENT, '<group_reference>') }],
  accessPatterns: [
    { name: 'Get one', serves: '`groups/{group_reference}`', builders: ['keys.group.item'], example: () => groupKeys.item(EXAMPLE_CLIENT, '<group_reference>') },
    { name: 'List the tenant\'s (`starts_with`: a prefix of the sort key)', serves: '`GET groups`', builders: ['keys.group.list'], example: () => groupKeys.list(EXAMPLE_CLIENT, '<prefix>') },
  ],
}));
