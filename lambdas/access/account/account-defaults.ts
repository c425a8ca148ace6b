import type { Principal } from '#core/auth/principal.ts';
import { ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem } from '#core/ports/table-store.ts';
import { ENTITY, keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import { AccountDefaults, type AccountDefaultsRequest } from '#shared/contract/entities/account.ts';
import { actorOf, type AccessDependencies } from '../access-lists.ts';
import { withoutKeys } from '#core/store/items.ts';

/**
 * Account defaults (spec point 6: default user group and role, account-wide CIDR limits) are one account setting
 * item, `keys.account.setting(client, 'DEFAULTS')`. Tenants created before it existed (the local seed) carry them
 * as `account_defaults` on the account item: read as a fallback until the first PUT writes the setting.
 */
export const DEFAULTS_SETTING = 'DEFAULTS';

export const defaultsKey = (client: string) => keys.account.setting(client, DEFAULTS_SETTING);

export async function getAccountDefaults(dependencies: Pick<AccessDependencies, 'table'>, client: string): Promise<AccountDefaults> {
  const item = await dependencies.table.get(defaultsKey(client), { consistent: true });
  if (item !== undefined) return AccountDefaults.parse(withoutKeys(item));
  const account = await dependencies.table.get(keys.account.item(client), { consistent: true });
  return legacyDefaults(client, account?.account_defaults);
}

/** The legacy attribute, field by field: a field that breaks today's rules (the seed's `user_group: '*'`) is dropped. */
export function legacyDefaults(client: string, value: unknown): AccountDefaults {
  const source = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const kept: Record<string, unknown> = { client };
  for (const [field, schema] of Object.entries(AccountDefaults.shape)) {
    if (field === 'client' || source[field] === undefined) continue;
    const parsed = schema.safeParse(source[field]);
    if (parsed.success) kept[field] = parsed.data;
  }
  return AccountDefaults.parse(kept);
}

/**
 * Replaces the defaults. A named role must exist: the write and a check on the role item are one transaction, so a
 * role deleted meanwhile cannot end up as the default (role delete checks the other direction).
 */
export async function putAccountDefaults(
  dependencies: AccessDependencies,
  client: string,
  request: AccountDefaultsRequest,
  principal: Principal | undefined,
): Promise<AccountDefaults> {
  const defaults: AccountDefaults = {
    client,
    ...(request.user_group === undefined ? {} : { user_group: request.user_group }),
    ...(request.role === undefined ? {} : { role: request.role }),
    cidr_ranges: request.cidr_ranges,
    updated_by: actorOf(principal),
    updated_at: dependencies.clock.now().toISOString(),
  };
  const item: TableItem = { ...defaultsKey(client), entity: ENTITY.account, setting: DEFAULTS_SETTING, ...defaults };
  if (request.role === undefined) {
    await dependencies.table.put(item);
    return defaults;
  }
  const role = keys.role.item(client, request.role);
  try {
    await dependencies.table.transactWrite([
      { kind: 'put', item },
      {
        kind: 'check',
        key: { pk: role.pk, sk: role.sk },
        condition: { kind: 'expression', expression: 'attribute_exists(#cpk)', names: { '#cpk': TABLE_KEYS.partitionKey } },
      },
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ValidationError(['body.role: Unknown role']);
    throw error;
  }
  return defaults;
}
