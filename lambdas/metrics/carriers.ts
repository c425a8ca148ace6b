import * as z from 'zod';
import { Instant } from './instant.ts';
import { Country } from '#shared/contract/entities/carriers.ts';
import { ClientId, CountryCode } from '#shared/contract/fields.ts';
import type { Dependencies } from '../core/dependencies.ts';
import { ConditionFailedError, type ItemKey, type TableItem } from '../core/ports/table-store.ts';
import type { Page } from '../core/store/cursor.ts';
import { pageOf } from '../core/store/paging.ts';
import { ADMIN_CLIENT } from '../core/auth/principal.ts';
import { ENTITY, keys } from '../core/store/keys.ts';
import { CARRIER_CLIENT_PREFIX, readCarrierSeen } from '../core/store/entities/carrier-seen.ts';

/**
 * Carriers seen, per country, across clients (internal `GET /countries`), kept at write time: the telemetry or
 * payload processing that reads a device's carrier metadata calls `recordCarrierSeen`. One item per (country,
 * carrier) in the provider's tenant; the clients that saw it are flat counters `cl_<client>` (ADD creates a missing
 * number; a set or map would need the item to exist first), so recording is one atomic update plus, only when the
 * sighting moves them, a conditional SET of first_seen or last_seen.
 */

/** Carrier texts come from phones: bounded, printable. */
const carrierText = z.string().trim().min(1).max(100);

export const CarrierSeenInput = z.strictObject({
  country_code: CountryCode,
  /** Shown as given by the last sighting; the code is the country's identity. */
  country_name: carrierText.optional(),
  carrier_code: carrierText,
  carrier_name: carrierText,
  time: Instant,
});
export type CarrierSeenInput = z.input<typeof CarrierSeenInput>;

type Deps = Pick<Dependencies, 'table'>;

async function setIfBeyond(deps: Deps, key: ItemKey, attribute: 'first_seen' | 'last_seen', time: string): Promise<void> {
  const comparison = attribute === 'first_seen' ? '>' : '<';
  try {
    await deps.table.update(
      key,
      { set: { [attribute]: time } },
      { condition: { kind: 'expression', expression: `attribute_not_exists(#at) OR #at ${comparison} :t`, names: { '#at': attribute }, values: { ':t': time } } },
    );
  } catch (error) {
    // A concurrent sighting moved it further already.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/** Records that a device of `client` used a carrier at `time`. Throws (ZodError) on malformed input: a caller bug. */
export async function recordCarrierSeen(deps: Deps, client: string, input: CarrierSeenInput): Promise<void> {
  ClientId.parse(client);
  const seen = CarrierSeenInput.parse(input);
  const time = seen.time.toISOString();
  const key = keys.carrier.item(seen.country_code, seen.carrier_code);
  const item = await deps.table.update(key, {
    set: {
      entity: ENTITY.carrierSeen,
      country_code: seen.country_code,
      carrier_code: seen.carrier_code,
      carrier_name: seen.carrier_name,
      ...(seen.country_name === undefined ? {} : { country_name: seen.country_name }),
    },
    add: { [`${CARRIER_CLIENT_PREFIX}${client}`]: 1 },
  });
  const stored = item === undefined ? undefined : readCarrierSeen(item);
  const first = stored?.first_seen;
  const last = stored?.last_seen;
  await Promise.all([
    first !== undefined && first <= time ? undefined : setIfBeyond(deps, key, 'first_seen', time),
    last !== undefined && last >= time ? undefined : setIfBeyond(deps, key, 'last_seen', time),
  ]);
}

/** Groups carrier items (sorted by country) into the contract's Countries, in order. */
export function toCountries(items: readonly TableItem[]): Country[] {
  const countries: Country[] = [];
  for (const carrier of items.map(readCarrierSeen)) {
    const code = carrier.country_code;
    let country = countries.at(-1);
    if (country === undefined || country.country_code !== code) {
      country = { country_code: code, country_name: '', carriers: [] };
      countries.push(country);
    }
    if (carrier.country_name !== undefined) country.country_name = carrier.country_name;
    country.carriers.push({
      carrier_code: carrier.carrier_code,
      carrier_name: carrier.carrier_name,
      ...(carrier.first_seen === undefined ? {} : { first_seen: carrier.first_seen }),
      ...(carrier.last_seen === undefined ? {} : { last_seen: carrier.last_seen }),
      clients: carrier.clients,
    });
  }
  // A country no sighting named shows its code.
  return countries.map((country) => Country.parse({ ...country, country_name: country.country_name || `+${country.country_code}` }));
}

/**
 * `GET /countries`: one Query on the carriers partition (by country code, then carrier), grouped into countries.
 * The page limit counts carriers, so a country with many carriers may continue on the next page (same code again).
 */
export async function listCountries(
  deps: Pick<Dependencies, 'table' | 'cursors'>,
  query: { last_key?: string | undefined; limit: number },
): Promise<Page<Country>> {
  const page = await pageOf(deps, { client: ADMIN_CLIENT, query: keys.carrier.list(), page: query, toData: (item) => item });
  const data = toCountries(page.data);
  return { count: data.length, data, ...(page.last_key === undefined ? {} : { last_key: page.last_key }) };
}
