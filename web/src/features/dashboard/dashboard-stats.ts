import type { Dashboard } from '#shared/contract/entities/dashboard.ts';

export interface StatCard {
  label: string;
  value: number;
  /** A line under the number (what it is made of). */
  detail?: string;
}

/** The dashboard's stat cards: device counts, then device-user counts. Legacy cards add up both legacy states. */
export function dashboardCards(dashboard: Dashboard): { devices: StatCard[]; users: StatCard[] } {
  const { devices, users } = dashboard;
  return {
    devices: [
      { label: 'Activated', value: devices.activated },
      { label: 'Pending', value: devices.pending },
      { label: 'Deactivated', value: devices.deactivated },
      {
        label: 'Legacy',
        value: devices.legacyActivated + devices.legacyDeactivated,
        detail: `${devices.legacyActivated} activated, ${devices.legacyDeactivated} deactivated`,
      },
    ],
    users: [
      { label: 'Onboarded', value: users.onboarded },
      { label: 'Offboarded', value: users.offboarded },
      {
        label: 'Legacy',
        value: users.legacyOnboarded + users.legacyOffboarded,
        detail: `${users.legacyOnboarded} onboarded, ${users.legacyOffboarded} offboarded`,
      },
    ],
  };
}

/** Versions for a chart: most devices first, then by version text (so equal counts keep a stable order). */
export function versionBars(versions: Dashboard['app_versions']): { label: string; value: number }[] {
  return [...versions]
    .sort((a, b) => b.count - a.count || a.version.localeCompare(b.version, 'en-GB', { numeric: true }))
    .map((entry) => ({ label: entry.version || 'Unknown', value: entry.count }));
}
