import type { Carrier, Country } from '#shared/contract/entities/carriers.ts';
import type { ClientStatistics } from '#shared/contract/entities/licences.ts';

/** The `stores` breakdown of one client's statistics, read defensively (it is an open record on the wire). */
export function stateCounts(statistics: ClientStatistics, store: 'devices' | 'device_users'): { label: string; value: number }[] {
  const record = statistics.stores?.[store];
  if (typeof record !== 'object' || record === null) return [];
  return Object.entries(record as Record<string, unknown>)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]))
    .map(([state, value]) => ({ label: stateLabel(state), value }));
}

/** "not_activated" / "NotActivated" read "Not activated". */
export function stateLabel(state: string): string {
  const words = state.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One bar per client for a count, largest first (ties by name), so the biggest tenants lead the chart. */
export function perClientBars(rows: readonly ClientStatistics[], count: (row: ClientStatistics) => number | undefined): { label: string; value: number }[] {
  return rows
    .map((row) => ({ label: row.client, value: count(row) ?? 0 }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
}

/** A carrier row of the carriers screen: the carrier with its country. */
export type CarrierRow = Carrier & { country_name: string; country_code: Country['country_code'] };

export function carrierRows(countries: readonly Country[]): CarrierRow[] {
  return countries.flatMap((country) =>
    country.carriers.map((carrier) => ({ ...carrier, country_name: country.country_name, country_code: country.country_code })),
  );
}
