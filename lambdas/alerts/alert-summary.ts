import type { AlertSummary } from '#shared/contract/entities/alerts.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { keys } from '../core/store/keys.ts';
import { SCOPE_SEVERITIES, userId } from './alert-model.ts';
import { alertCount, readAlertCounter } from '../core/store/entities/alert-counter.ts';
import type { AlertAccess } from './alert-permissions.ts';

/**
 * Per scope the caller may read and per severity: Triggered alerts of the tenant less those the caller dismissed.
 * Two counter items, read strongly consistent; never a count over the alerts themselves.
 */
export async function alertSummary(deps: Pick<Dependencies, 'table'>, client: string, access: AlertAccess): Promise<AlertSummary[]> {
  const [tenant, user] = await Promise.all([
    deps.table.get(keys.alert.tenantCounter(client), { consistent: true }),
    deps.table.get(keys.alert.userCounter(client, userId(access.user)), { consistent: true }),
  ]);
  const tenantCounts = tenant === undefined ? undefined : readAlertCounter(tenant);
  const userCounts = user === undefined ? undefined : readAlertCounter(user);
  return SCOPE_SEVERITIES.filter(({ scope }) => access.canRead(scope)).map(({ scope, severity }) => ({
    scope,
    severity,
    count: Math.max(0, alertCount(tenantCounts, scope, severity) - alertCount(userCounts, scope, severity)),
  }));
}
