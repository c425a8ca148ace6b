import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { accountDefaultsToItem, legacyAccountDefaults, readAccountDefaults, toAccountDefaults, type AccountDefaultsItem } from './account-defaults.ts';

const defaults: AccountDefaultsItem = { client: 'acme', user_group: 'north', role: 'reviewer', cidr_ranges: ['10.0.0.0/8'], completeness_grace_hours: 12, silent_device_hours: 48, updated_by: 'u-1', updated_at: '2026-01-02T03:04:05.000Z' };

describe('account defaults item', () => {
  it('round-trips under the DEFAULTS setting key, tagged as an account item', () => {
    const item = accountDefaultsToItem('acme', defaults);
    expect(item).toMatchObject({ ...keys.account.setting('acme', 'DEFAULTS'), entity: 'Account', setting: 'DEFAULTS' });
    expect(toAccountDefaults(readAccountDefaults(item))).toEqual(defaults);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...accountDefaultsToItem('acme', defaults), cidr_ranges: 'all' };
    expect(() => readAccountDefaults(item)).toThrow(InternalError);
    expect(() => readAccountDefaults(item)).toThrow(/AccountDefaults item .* cidr_ranges: /);
  });
});

describe('legacyAccountDefaults', () => {
  it('keeps the fields that pass today’s rules and drops the rest', () => {
    expect(legacyAccountDefaults('demo', { user_group: '*', role: 'reviewer', cidr_ranges: ['10.0.0.0/8'] })).toEqual({
      client: 'demo',
      role: 'reviewer',
      cidr_ranges: ['10.0.0.0/8'],
      completeness_grace_hours: 24,
      silent_device_hours: 24,
    });
  });

  it('answers empty defaults for missing or hostile values', () => {
    for (const value of [undefined, null, 'x', 42, { role: { $ne: 1 }, cidr_ranges: 'all', completeness_grace_hours: 0 }]) {
      expect(legacyAccountDefaults('demo', value)).toEqual({ client: 'demo', cidr_ranges: [], completeness_grace_hours: 24, silent_device_hours: 24 });
    }
  });
});
