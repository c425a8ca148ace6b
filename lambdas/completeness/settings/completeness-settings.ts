import type { Dependencies } from '#core/dependencies.ts';
import { readAccount } from '#core/store/entities/account.ts';
import { accountDefaultsKey, legacyAccountDefaults, readAccountDefaults } from '#core/store/entities/account-defaults.ts';
import { keys } from '#core/store/keys.ts';

/** The account's capture completeness hours (account defaults; the contract applies the defaults when none was set). */
export interface CompletenessSettings {
  /** Hours a ledger entry stays `Pending` past its end before it is `Missing`. */
  graceHours: number;
  /** Hours without a ledger report or telemetry before an activated device is silent. */
  silentDeviceHours: number;
}

/**
 * Reads them from the account defaults setting, else (tenants whose defaults were never saved) from the account
 * item's legacy defaults, as the defaults endpoint answers them: so intake, the sweep and the form agree.
 */
export async function completenessSettingsOf(deps: Pick<Dependencies, 'table'>, client: string): Promise<CompletenessSettings> {
  const setting = await deps.table.get(accountDefaultsKey(client));
  const defaults =
    setting !== undefined
      ? readAccountDefaults(setting)
      : legacyAccountDefaults(client, await legacyAttribute(deps, client));
  return { graceHours: defaults.completeness_grace_hours, silentDeviceHours: defaults.silent_device_hours };
}

async function legacyAttribute(deps: Pick<Dependencies, 'table'>, client: string): Promise<unknown> {
  const account = await deps.table.get(keys.account.item(client));
  return account === undefined ? undefined : readAccount(account).account_defaults;
}
