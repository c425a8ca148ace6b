import type { TenantCaller } from '#core/http/caller.ts';
import { readDashboard, sumCounterItems } from '../../metrics/public.ts';
import { readDashboardCounters } from '#core/store/entities/dashboard-counters.ts';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import type { Dashboard } from '#shared/contract/entities/dashboard.ts';

/**
 * The dashboard, from counters kept at write time (lambdas/metrics/dashboard-counters.ts), whatever the fleet
 * size: one GetItem of the tenant's counters for a caller who sees every group; for a group-limited role, one Query
 * of the groups' shares (and the facts of those groups, batched) summed over the groups in its scope.
 */
export async function getDashboard(caller: TenantCaller): Promise<Dashboard> {
  const { deps: dependencies, tenant: client } = caller;
  const scope = caller.groupScope();
  if (scope.unrestricted) return readDashboard(await dependencies.table.get(keys.device.dashboardCounters(client)));
  const list = keys.device.listGroupDashboardCounters(client);
  // Every share is read (a tenant's groups are far fewer than the bound): a sum over some of them would be wrong.
  const shares = (await readAll(dependencies.table, list)).map(readDashboardCounters);
  // A share names its group (lambdas/metrics/dashboard-counters.ts); one that names none counts for no group.
  const named = shares.flatMap(({ group, counters }) => (group === undefined ? [] : [{ group, counters }]));
  const visible = await scope.visibleOf(named.map((share) => share.group));
  return readDashboard(sumCounterItems(named.filter((share) => visible.has(share.group)).map((share) => share.counters)));
}
