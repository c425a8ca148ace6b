import { describe, expect, it, vi } from 'vitest';
import { ConflictError, NotFoundError } from '../core/errors.ts';
import { ConditionFailedError, type TableStore } from '../core/ports/table-store.ts';
import { adjustGroupStats, groupStatsOperation, readGroupStats, statsIncrements } from './group-stats.ts';
import { keys } from '../core/store/keys.ts';

function fakeTable(overrides: Partial<TableStore>): TableStore {
  const refuse = () => {
    throw new Error('unexpected call');
  };
  return { get: refuse, put: refuse, update: refuse, delete: refuse, query: refuse, transactWrite: refuse, batchGet: refuse, ...overrides } as TableStore;
}

describe('statsIncrements', () => {
  it('maps a delta onto flat counter attributes, leaving zeros out', () => {
    expect(
      statsIncrements({ device_users: 1, actual_devices: 0, expected_devices: -2, services: { calls: { used_licenses: 1, active_users: 0 } } }),
    ).toEqual({ stats_device_users: 1, stats_expected_devices: -2, stats_svc_calls_used_licenses: 1 });
  });

  it('refuses fractions, NaN and unknown services', () => {
    expect(() => statsIncrements({ device_users: 0.5 })).toThrow(/whole number/);
    expect(() => statsIncrements({ device_users: Number.NaN })).toThrow(/whole number/);
    expect(() => statsIncrements({ services: { fax: { used_licenses: 1 } } as never })).toThrow(/Unknown service/);
  });
});

describe('groupStatsOperation', () => {
  it('is one ADD on the group key, guarded so the group exists and no decrement goes below zero', () => {
    const operation = groupStatsOperation('demo', 'north', { device_users: 1, actual_devices: -1 });
    const { pk, sk } = keys.group.item('demo', 'north');
    expect(operation).toEqual({
      kind: 'update',
      key: { pk, sk },
      update: { add: { stats_device_users: 1, stats_actual_devices: -1 } },
      condition: {
        kind: 'expression',
        expression: 'attribute_exists(#gpk) AND #g0 >= :g0',
        names: { '#gpk': 'pk', '#g0': 'stats_actual_devices' },
        values: { ':g0': 1 },
      },
    });
  });

  it('is nothing for an empty delta', () => {
    expect(groupStatsOperation('demo', 'north', {})).toBeUndefined();
  });
});

describe('adjustGroupStats', () => {
  it('updates atomically and answers the stats after the change', async () => {
    const update = vi.fn(async () => ({ pk: 'p', sk: 's', entity: 'Group', stats_device_users: 3, stats_svc_sms_active_users: 2 }));
    const stats = await adjustGroupStats({ table: fakeTable({ update }) }, 'demo', 'north', { device_users: 1 });
    expect(update).toHaveBeenCalledOnce();
    expect(stats).toEqual({
      device_users: 3,
      expected_devices: 0,
      actual_devices: 0,
      services: { sms: { used_licenses: 0, expected_devices: 0, active_devices: 0, active_users: 2 } },
    });
  });

  it('answers 404 for a missing group and 409 when a counter would go negative', async () => {
    const update = vi.fn(async () => {
      throw new ConditionFailedError('Conflict');
    });
    await expect(adjustGroupStats({ table: fakeTable({ update, get: async () => undefined }) }, 'demo', 'gone', { device_users: 1 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const existing = fakeTable({ update, get: async () => ({ pk: 'p', sk: 's', entity: 'Group' }) });
    await expect(adjustGroupStats({ table: existing }, 'demo', 'north', { device_users: -1 })).rejects.toBeInstanceOf(ConflictError);
  });

  it('refuses a hostile tenant before touching the table', async () => {
    await expect(adjustGroupStats({ table: fakeTable({}) }, 'C#other', 'north', { device_users: 1 })).rejects.toThrow(/Not a client slug/);
  });
});

describe('readGroupStats', () => {
  it('reads missing counters as 0 and never shows a negative or fractional count', () => {
    expect(readGroupStats({ stats_device_users: -4, stats_actual_devices: 2.7, stats_expected_devices: 'x' })).toEqual({
      device_users: 0,
      expected_devices: 0,
      actual_devices: 2,
      services: {},
    });
  });
});
