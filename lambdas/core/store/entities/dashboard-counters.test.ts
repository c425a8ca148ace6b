import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readDashboardCounters } from './dashboard-counters.ts';

describe('dashboard counters item', () => {
  it('reads every counter by its attribute name, and a share’s group; other attributes are not counters', () => {
    const item = { ...keys.device.groupDashboardCounters('acme', 'north'), group: 'north', dev_activated: 3, usr_offboarded: -1, 'appv#5.2': 2, 'osv#a%23b': 1 };
    expect(readDashboardCounters(item)).toEqual({ group: 'north', counters: { dev_activated: 3, usr_offboarded: -1, 'appv#5.2': 2, 'osv#a%23b': 1 } });
    expect(readDashboardCounters({ ...keys.device.dashboardCounters('acme'), entity: 'DashboardCounters' })).toEqual({ counters: {} });
  });

  it('refuses a counter that is not a number, or a group that is not a name, naming the path', () => {
    const item = { ...keys.device.dashboardCounters('acme'), entity: 'DashboardCounters', dev_activated: '3' };
    expect(() => readDashboardCounters(item)).toThrow(InternalError);
    expect(() => readDashboardCounters(item)).toThrow(/DashboardCounters item .*dev_activated: /);
    expect(() => readDashboardCounters({ ...item, dev_activated: 3, group: 7 })).toThrow(/DashboardCounters item .*group: /);
  });
});
