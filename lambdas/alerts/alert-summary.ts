import type { AlertSummary } from '#shared/contract/entities/alerts.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { keys } from '../core/store/keys.ts';
import { counterAttribute, SCOPE_SEVERITIES, userId } from './alert-model.ts';
import type { AlertAccess } from './alert-permissions.ts';

const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Per scope the caller may read and per severity: Triggered alerts of the tenant less those the caller dismissed.
 * Two counter items, read strongly consistent; never a count over the alerts themselves.
 */
export async function alertSummary(deps: Pick<Dependencies, 'table'>, client: string, access: AlertAccess): Promise<AlertSummary[]> {
  const [tenant, user] = await Promise.all([
    deps.table.get(keys.alert.tenantCounter(client), { consistent: true }),
    deps.table.get(keys.alert.userCounter(client, userId(access.user)), { consistent: true }),
  ]);
  return SCOPE_SEVERITIES.filter(({ scope }) => access.canRead(scope)).map(({ scope, severity }) => {
    const attribute = counterAttribute(scope, severity);
    return { scope, severity, count: Math.max(0, numberOf(tenant?.[attribute]) - numberOf(user?.[attribute])) };
  });
}
