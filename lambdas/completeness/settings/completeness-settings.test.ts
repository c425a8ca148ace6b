import { describe, expect, it } from 'vitest';
import { COMPLETENESS_GRACE_HOURS_DEFAULT, SILENT_DEVICE_HOURS_DEFAULT } from '#shared/constants/completeness.ts';
import { accountDefaultsToItem } from '../../core/store/entities/account-defaults.ts';
import { keys } from '../../core/store/keys.ts';
import { createMemoryTable } from '../../core/testing/memory-table.ts';
import { completenessSettingsOf } from './completeness-settings.ts';

const client = 'settings';

describe('completeness settings', () => {
  it('are the defaults when the account never set them', async () => {
    const table = createMemoryTable([{ ...keys.account.item(client), client, account_defaults: { user_group: '*' } }]);
    expect(await completenessSettingsOf({ table }, client)).toEqual({ graceHours: COMPLETENESS_GRACE_HOURS_DEFAULT, silentDeviceHours: SILENT_DEVICE_HOURS_DEFAULT });
    expect(await completenessSettingsOf({ table: createMemoryTable() }, client)).toEqual({ graceHours: 24, silentDeviceHours: 24 });
  });

  it('are the saved defaults setting once there is one', async () => {
    const table = createMemoryTable([accountDefaultsToItem(client, { client, cidr_ranges: [], completeness_grace_hours: 6, silent_device_hours: 48 })]);
    expect(await completenessSettingsOf({ table }, client)).toEqual({ graceHours: 6, silentDeviceHours: 48 });
  });

  it('fill a setting saved before they existed with the defaults', async () => {
    const item = accountDefaultsToItem(client, { client, cidr_ranges: [], completeness_grace_hours: 1, silent_device_hours: 1 });
    delete item.completeness_grace_hours;
    delete item.silent_device_hours;
    expect(await completenessSettingsOf({ table: createMemoryTable([item]) }, client)).toEqual({ graceHours: 24, silentDeviceHours: 24 });
  });
});
