import type { AlertScope } from '#shared/constants/alerts.ts';
import type { Dependencies } from '../core/dependencies.ts';
import type { TableItem } from '../core/ports/table-store.ts';
import { keys } from '../core/store/keys.ts';

/** A portal user to notify of an alert. */
export interface AlertRecipient {
  user_reference: string;
  email?: string;
}

async function queryAll(deps: Pick<Dependencies, 'table'>, list: { partition: string }): Promise<TableItem[]> {
  const items: TableItem[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...list, limit: 500, ...(startKey ? { startKey } : {}) });
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return items;
}

/**
 * The tenant's portal users to notify of an alert of `scope`: those holding at least one role that is alertable and
 * may read the scope. A user without roles holds the account's default role. Two Queries (roles, users) and one get.
 */
export async function recipientsOf(deps: Pick<Dependencies, 'table'>, client: string, scope: AlertScope): Promise<AlertRecipient[]> {
  const [roles, users, defaults] = await Promise.all([
    queryAll(deps, keys.role.list(client)),
    queryAll(deps, keys.portalUser.list(client)),
    deps.table.get(keys.account.setting(client, 'DEFAULTS')),
  ]);
  const alerting = new Set(
    roles
      .filter((role) => role.is_alertable === true)
      .filter((role) => (role.alert_permissions as Record<string, unknown> | undefined)?.[`${scope}_read`] === true)
      .map((role) => role.role_reference as string),
  );
  const defaultRole = typeof defaults?.role === 'string' ? defaults.role : undefined;
  return users
    .filter((user) => {
      const held = Array.isArray(user.roles) && user.roles.length > 0 ? (user.roles as string[]) : defaultRole ? [defaultRole] : [];
      return held.some((role) => alerting.has(role));
    })
    .map((user) => ({
      user_reference: String(user.user_reference),
      ...(typeof user.email === 'string' ? { email: user.email } : {}),
    }));
}
