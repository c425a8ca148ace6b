import type { AlertSummary } from '#shared/contract/entities/alerts.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { keys } from '../core/store/keys.ts';
import { SCOPE_SEVERITIES } from './alert-model.ts';
import { alertCount, readAlertCounter } from '../core/store/entities/alert-counter.ts';
import type { AlertsCaller } from './alert-permissions.ts';

/**
 * Per scope the caller may read and per severity: Triggered alerts of the tenant less those the caller dismissed.
 * Two counter items, read strongly consistent; never a count over the alerts themselves.
 */
export async function alertSummary(caller: AlertsCaller<Pick<Dependencies, 'table'>>): Promise<AlertSummary[]> {
  const { deps, tenant: client, alerts: access } = caller;
  // The caller's dismissals may sit under their reference and under the e-mail that keyed them before: both count.
  const [tenant, ...users] = await Promise.all([
    deps.table.get(keys.alert.tenantCounter(client), { consistent: true }),
    ...access.keys().map((key) => deps.table.get(keys.alert.userCounter(client, key), { consistent: true })),
  ]);
  const tenantCounts = tenant === undefined ? undefined : readAlertCounter(tenant);
  const userCounts = users.flatMap((user) => (user === undefined ? [] : [readAlertCounter(user)]));
  return SCOPE_SEVERITIES.filter(({ scope }) => access.canRead(scope)).map(({ scope, severity }) => ({
    scope,
    severity,
    count: Math.max(0, alertCount(tenantCounts, scope, severity) - userCounts.reduce((sum, counts) => sum + alertCount(counts, scope, severity), 0)),
  }));
}
