import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { entityModel } from '../entity-model.ts';

/**
 * Carriers seen in device carrier metadata, across clients (internal `GET /countries`): one item per (country,
 * carrier) in the provider's own tenant, sort key `<country code, 2 digits>#<carrier code>`, so one Query lists
 * them grouped by country.
 */
export const carrierKeys = {
  item: (countryCode: number, carrierCode: string): ItemKey => {
    if (!Number.isSafeInteger(countryCode) || countryCode < 1 || countryCode > 99) {
      throw new Error(`Not a country code: ${String(countryCode).slice(0, 20)}`);
    }
    return { pk: `${tenantPrefix('admin')}CARRIERS`, sk: `${String(countryCode).padStart(2, '0')}#${part(carrierCode)}` };
  },
  list: (): ListKey => list(undefined, `${tenantPrefix('admin')}CARRIERS`),
};

/** The prefix of a carrier item's per-client counters (`cl_<client>`, ADDed per sighting). */
export const CARRIER_CLIENT_PREFIX = 'cl_';

/**
 * A carrier seen in one country, across clients (lambdas/metrics/carriers.ts has the why): one item per (country,
 * carrier) in the provider's tenant, with a flat counter per client that saw it.
 */
const carrierSeenAttributesSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  country_code: z.number(),
  country_name: z.string().optional(),
  carrier_code: z.string(),
  carrier_name: z.string(),
  first_seen: z.string().optional(),
  last_seen: z.string().optional(),
}));

export type CarrierSeenItem = z.infer<ReturnType<typeof carrierSeenAttributesSchema>> & {
  /** The clients that saw it (from the names of its counters), sorted. */
  clients: string[];
};

export function readCarrierSeen(item: TableItem): CarrierSeenItem {
  const clients = Object.keys(item)
    .filter((attribute) => attribute.startsWith(CARRIER_CLIENT_PREFIX))
    .map((attribute) => attribute.slice(CARRIER_CLIENT_PREFIX.length))
    .sort();
  return { ...readItem('CarrierSeen', carrierSeenAttributesSchema(), item), clients };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const carrierSeenModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.carrierSeen,
  title: 'Carrier seen, across clients (in the provider\'s tenant)',
  module: 'carrier-seen.ts',
  indexes: {},
  items: [{ example: () => carrierKeys.item(44, '<carrier>') }],
  accessPatterns: [{ name: 'Carriers by country', serves: 'internal `GET /countries`', builders: ['keys.carrier.list'], example: () => carrierKeys.list() }],
}));
