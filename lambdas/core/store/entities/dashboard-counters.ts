import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { readCounterItem } from './read-item.ts';

/** The prefixes of the counter attributes: devices and device users by dashboard state, app and OS versions. */
export const DASHBOARD_COUNTER_PREFIX = { device: 'dev_', user: 'usr_', appVersion: 'appv#', osVersion: 'osv#' } as const;

const PREFIXES: readonly string[] = Object.values(DASHBOARD_COUNTER_PREFIX);

/**
 * A tenant's dashboard counters (`keys.device.dashboardCounters`) or one group's share of them
 * (`keys.device.groupDashboardCounters`, which names its `group`); lambdas/metrics/dashboard-counters.ts has the why.
 * The counters are flat numbers named after what they count (`dev_activated`, `appv#<version>`, …), changed with
 * atomic ADD and absent until first counted.
 */
const DashboardCountersLabels = z.object({ group: z.string().optional() });

export type DashboardCountersItem = z.infer<typeof DashboardCountersLabels> & {
  /** Every counter by its attribute name. */
  counters: Record<string, number>;
};

export function readDashboardCounters(item: Partial<TableItem>): DashboardCountersItem {
  return readCounterItem('DashboardCounters', DashboardCountersLabels, item, (attribute) =>
    PREFIXES.some((prefix) => attribute.startsWith(prefix)) ? attribute : undefined,
  );
}
