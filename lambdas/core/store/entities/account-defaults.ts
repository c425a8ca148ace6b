import * as z from 'zod';
import { AccountDefaults } from '#shared/contract/entities/account.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY } from '../key-parts.ts';
import { accountKeys } from './account.ts';
import { readItem } from './read-item.ts';

/**
 * Account defaults (spec point 6: default user group and role, account-wide CIDR limits) are one account setting
 * item, `accountKeys.setting(client, 'DEFAULTS')`, stored as the contract shows them. Tenants created before it
 * existed (the local seed) carry them as `account_defaults` on the account item (account.ts), read field by field
 * with `legacyAccountDefaults` until the first PUT writes the setting.
 */
export const DEFAULTS_SETTING = 'DEFAULTS';

export const accountDefaultsItemSchema = /* @__PURE__ */ onFirstUse(() => AccountDefaults);
export type AccountDefaultsItem = z.infer<ReturnType<typeof accountDefaultsItemSchema>>;

export const accountDefaultsKey = (client: string): ItemKey => accountKeys.setting(client, DEFAULTS_SETTING);

export function readAccountDefaults(item: TableItem): AccountDefaultsItem {
  return readItem('AccountDefaults', accountDefaultsItemSchema(), item);
}

/** The setting's item: the defaults under the setting key, tagged as an account item and named by `setting`. */
export function accountDefaultsToItem(client: string, defaults: AccountDefaultsItem): TableItem {
  return { ...accountDefaultsKey(client), entity: ENTITY.account, setting: DEFAULTS_SETTING, ...defaults };
}

/** The defaults as the API answers them. */
export function toAccountDefaults(stored: AccountDefaultsItem): AccountDefaults {
  return stored;
}

/** Anything that is not an object of attributes reads as no attributes. */
const legacyAttributesSchema = /* @__PURE__ */ onFirstUse(() => z.record(z.string(), z.unknown()).catch({}));

/**
 * The legacy `account_defaults` attribute, field by field: a field that breaks today's rules (the seed's
 * `user_group: '*'`) is dropped, so an old tenant keeps the defaults that still make sense.
 */
export function legacyAccountDefaults(client: string, value: unknown): AccountDefaultsItem {
  const source = legacyAttributesSchema().parse(value);
  const kept = Object.entries(AccountDefaults.shape).flatMap(([field, schema]) => {
    if (field === 'client' || source[field] === undefined) return [];
    const parsed = schema.safeParse(source[field]);
    return parsed.success ? [[field, parsed.data] as const] : [];
  });
  return AccountDefaults.parse({ ...Object.fromEntries(kept), client });
}
