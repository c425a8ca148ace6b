import { describe, expect, it } from 'vitest';
import { carrierRows, perClientBars, stateCounts, stateLabel } from './statistics-model.ts';

describe('statistics model', () => {
  it('reads the per-state breakdown and ignores what is not a count', () => {
    const statistics = { client: 'demo', stores: { devices: { Active: 3, NotActivated: 1, broken: 'x' }, device_users: null } };
    expect(stateCounts(statistics, 'devices')).toEqual([
      { label: 'Active', value: 3 },
      { label: 'Not activated', value: 1 },
    ]);
    expect(stateCounts(statistics, 'device_users')).toEqual([]);
    expect(stateLabel('not_activated')).toBe('Not activated');
  });

  it('orders clients by the count, largest first', () => {
    const rows = [{ client: 'b', devices: 2 }, { client: 'a', devices: 2 }, { client: 'c', devices: 9 }, { client: 'd' }];
    expect(perClientBars(rows, (row) => row.devices).map((bar) => bar.label)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('lists each carrier with its country', () => {
    const rows = carrierRows([
      { country_name: 'United Kingdom', country_code: 44, carriers: [{ carrier_name: 'EE', carrier_code: '23430', clients: ['demo'] }] },
      { country_name: 'France', country_code: 33, carriers: [] },
    ]);
    expect(rows).toEqual([{ carrier_name: 'EE', carrier_code: '23430', clients: ['demo'], country_name: 'United Kingdom', country_code: 44 }]);
  });
});
