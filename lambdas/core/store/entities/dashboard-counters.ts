import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ListKey } from '../key-parts.ts';
import { readCounterItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

const dashboardPartition = (client: string) => `${tenantPrefix(client)}DASHBOARD`;

export const dashboardCounterKeys = {
  /**
   * The tenant's dashboard counters (devices by state, device users by state, app and OS versions): one item,
   * changed only by atomic ADD in the transaction of the write that moves a device or device user
   * (lambdas/metrics/dashboard-counters.ts), so the dashboard is one GetItem at any fleet size.
   */
  dashboardCounters: (client: string): ItemKey => ({ pk: dashboardPartition(client), sk: 'COUNTERS' }),
  /**
   * One group's share of the dashboard counters (same attributes), in the same partition as the tenant's item and
   * written in the same transaction: a group-limited role's dashboard sums the shares of its groups (one Query).
   */
  groupDashboardCounters: (client: string, group: string): ItemKey => ({ pk: dashboardPartition(client), sk: `GROUP#${part(group)}` }),
  /** The groups' shares of the dashboard counters (`groupDashboardCounters`), by group name. */
  listGroupDashboardCounters: (client: string): ListKey => ({ ...list(undefined, dashboardPartition(client)), sort: { beginsWith: 'GROUP#' } }),
};

/** The prefixes of the counter attributes: devices and device users by dashboard state, app and OS versions. */
export const DASHBOARD_COUNTER_PREFIX = { device: 'dev_', user: 'usr_', appVersion: 'appv#', osVersion: 'osv#' } as const;

const PREFIXES: readonly string[] = Object.values(DASHBOARD_COUNTER_PREFIX);

/**
 * A tenant's dashboard counters (`dashboardCounterKeys.dashboardCounters`) or one group's share of them
 * (`dashboardCounterKeys.groupDashboardCounters`, which names its `group`); lambdas/metrics/dashboard-counters.ts has the why.
 * The counters are flat numbers named after what they count (`dev_activated`, `appv#<version>`, …), changed with
 * atomic ADD and absent until first counted.
 */
const dashboardCountersLabelsSchema = /* @__PURE__ */ onFirstUse(() => z.object({ group: z.string().optional() }));

export type DashboardCountersItem = z.infer<ReturnType<typeof dashboardCountersLabelsSchema>> & {
  /** Every counter by its attribute name. */
  counters: Record<string, number>;
};

export function readDashboardCounters(item: Partial<TableItem>): DashboardCountersItem {
  return readCounterItem('DashboardCounters', dashboardCountersLabelsSchema(), item, (attribute) =>
    PREFIXES.some((prefix) => attribute.startsWith(prefix)) ? attribute : undefined,
  );
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const dashboardCountersModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.dashboardCounters,
  title: 'Dashboard counters, and each group\'s share of them (attribute `group`)',
  module: 'dashboard-counters.ts',
  indexes: {},
  items: [
    { when: 'the tenant\'s', example: () => dashboardCounterKeys.dashboardCounters(EXAMPLE_CLIENT) },
    { when: 'one group\'s share', example: () => dashboardCounterKeys.groupDashboardCounters(EXAMPLE_CLIENT, '<group>') },
  ],
  accessPatterns: [
    { name: 'The dashboard', serves: '`GET dashboard` (one GetItem)', builders: ['keys.device.dashboardCounters'], example: () => dashboardCounterKeys.dashboardCounters(EXAMPLE_CLIENT) },
    {
      name: 'The groups\' shares of the dashboard',
      serves: '`GET dashboard` for a group-limited role',
      builders: ['keys.device.listGroupDashboardCounters'],
      example: () => dashboardCounterKeys.listGroupDashboardCounters(EXAMPLE_CLIENT),
    },
  ],
}));
