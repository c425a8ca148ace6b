import { describe, expect, it } from 'vitest';
import { dashboardCards, versionBars } from './dashboard-stats.ts';

const dashboard = {
  devices: { activated: 6, pending: 1, deactivated: 2, legacyActivated: 1, legacyDeactivated: 3 },
  users: { onboarded: 5, offboarded: 1, legacyOnboarded: 2, legacyOffboarded: 0 },
  app_versions: [],
  os_versions: [],
};

describe('dashboardCards', () => {
  it('lists the device and user counts, legacy ones added up with their split', () => {
    const cards = dashboardCards(dashboard);
    expect(cards.devices.map((card) => [card.label, card.value])).toEqual([
      ['Activated', 6],
      ['Pending', 1],
      ['Deactivated', 2],
      ['Legacy', 4],
    ]);
    expect(cards.devices[3]?.detail).toBe('1 activated, 3 deactivated');
    expect(cards.users.map((card) => [card.label, card.value])).toEqual([
      ['Onboarded', 5],
      ['Offboarded', 1],
      ['Legacy', 2],
    ]);
  });
});

describe('versionBars', () => {
  it('sorts by count, then by version numerically', () => {
    expect(
      versionBars([
        { version: '5.10.0', count: 2 },
        { version: '5.2.0', count: 2 },
        { version: '3.9.7', count: 7 },
        { version: '', count: 1 },
      ]),
    ).toEqual([
      { label: '3.9.7', value: 7 },
      { label: '5.2.0', value: 2 },
      { label: '5.10.0', value: 2 },
      { label: 'Unknown', value: 1 },
    ]);
  });
});
