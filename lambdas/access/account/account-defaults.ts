import type { TenantCaller } from '#core/http/caller.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { readAccount } from '#core/store/entities/account.ts';
import {
  accountDefaultsKey,
  accountDefaultsToItem,
  legacyAccountDefaults,
  readAccountDefaults,
  toAccountDefaults,
} from '#core/store/entities/account-defaults.ts';
import { keys } from '#core/store/keys.ts';
import { TABLE_KEYS } from '#core/store/table-definition.ts';
import type { AccountDefaults, AccountDefaultsRequest } from '#shared/contract/entities/account.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { COMPLETENESS_GRACE_HOURS_DEFAULT, SILENT_DEVICE_HOURS_DEFAULT } from '#shared/constants/completeness.ts';
import { versionWrites } from '../../audit/public.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';

export const DEFAULTS_CHANGED_MESSAGE = 'The account defaults changed meanwhile; read them again and retry';

/** The `DEFAULTS` setting, else (tenants created before it existed) the account item's legacy attribute. */
export async function getAccountDefaults(caller: TenantCaller): Promise<AccountDefaults> {
  const { deps: dependencies, tenant: client } = caller;
  const item = await dependencies.table.get(accountDefaultsKey(client), { consistent: true });
  if (item !== undefined) return toAccountDefaults(readAccountDefaults(item));
  const account = await dependencies.table.get(keys.account.item(client), { consistent: true });
  return toAccountDefaults(legacyAccountDefaults(client, account === undefined ? undefined : readAccount(account).account_defaults));
}

/**
 * Replaces the defaults. A named role must exist: the write and a check on the role item are one transaction, so a
 * role deleted meanwhile cannot end up as the default (role delete checks the other direction). The defaults replaced
 * are kept as a version in the same transaction, which holds only while they are still the ones read. (A tenant whose
 * defaults are still the account item's legacy attribute has no setting to replace: that attribute stays as it is.)
 */
export async function putAccountDefaults(caller: TenantCaller, request: AccountDefaultsRequest): Promise<AccountDefaults> {
  const { deps: dependencies, tenant: client, principal } = caller;
  const defaults: AccountDefaults = {
    client,
    ...(request.user_group === undefined ? {} : { user_group: request.user_group }),
    ...(request.role === undefined ? {} : { role: request.role }),
    cidr_ranges: request.cidr_ranges,
    // Replaced like the rest: a request without them sets the defaults (what the form shows when none was set).
    completeness_grace_hours: request.completeness_grace_hours ?? COMPLETENESS_GRACE_HOURS_DEFAULT,
    silent_device_hours: request.silent_device_hours ?? SILENT_DEVICE_HOURS_DEFAULT,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: dependencies.clock.now().toISOString(),
  };
  const item = accountDefaultsToItem(client, defaults);
  const stored = await dependencies.table.get(accountDefaultsKey(client), { consistent: true });
  const role = request.role === undefined ? undefined : keys.role.item(client, request.role);
  try {
    await dependencies.table.transactWrite([
      { kind: 'put', item, condition: stored === undefined ? { kind: 'item-not-exists' } : unchangedItem(stored) },
      ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'account-defaults', reference: client, stored, change: 'updated' }])),
      ...(role === undefined
        ? []
        : [
            {
              kind: 'check' as const,
              key: { pk: role.pk, sk: role.sk },
              condition: { kind: 'expression' as const, expression: 'attribute_exists(#cpk)', names: { '#cpk': TABLE_KEYS.partitionKey } },
            },
          ]),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    // Which condition failed: the role gone, or the defaults changed since read.
    if (role !== undefined && (await dependencies.table.get({ pk: role.pk, sk: role.sk }, { consistent: true })) === undefined) {
      throw new ValidationError(['body.role: Unknown role']);
    }
    throw new ConflictError(DEFAULTS_CHANGED_MESSAGE);
  }
  return defaults;
}
