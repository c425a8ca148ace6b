import { readDashboard } from '#core/store/dashboard-counters.ts';
import { keys } from '#core/store/keys.ts';
import type { Dashboard } from '#shared/contract/entities/dashboard.ts';
import type { DevicesDependencies } from '../list-support.ts';

/** The dashboard: one GetItem of the tenant's counters (kept at write time), whatever the fleet size. */
export async function getDashboard(dependencies: Pick<DevicesDependencies, 'table'>, client: string): Promise<Dashboard> {
  return readDashboard(await dependencies.table.get(keys.device.dashboardCounters(client)));
}
