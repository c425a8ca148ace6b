import * as z from 'zod';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, tenantPrefix } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * A client's licences (lambdas/licences): ONE item holding the limits staff set (`limit_<service>`) and the use
 * counters (`used_<service>`, active device users with the service), so a device-user write can ADD to the use with
 * a condition on the limit of the same item, in its own transaction.
 */
export const licenceKeys = {
  item: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}LICENCES`, sk: 'LICENCES' }),
};

/** The limit staff set for a service, and its use. */
export const limitAttribute = (service: Service) => `limit_${service}` as const;
export const usedAttribute = (service: Service) => `used_${service}` as const;
type CounterName = ReturnType<typeof limitAttribute> | ReturnType<typeof usedAttribute>;

export type LicencesItem = { client?: string; updated_at?: string; updated_by?: string } & Partial<Record<CounterName, number>>;

/**
 * A client's licence item (lambdas/licences/licence-usage.ts has the why): per service, the limit staff set
 * (`limit_<service>`, absent until they set one) and the use kept at write time (`used_<service>`, changed with
 * atomic ADD, absent until first counted). The counter attributes are named after the services, so the shape is
 * built from the service list (and typed by LicencesItem).
 */
export const licencesItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional(),
  updated_at: z.string().optional(),
  updated_by: z.string().optional(),
  ...Object.fromEntries(SERVICES.flatMap((service) => [limitAttribute(service), usedAttribute(service)]).map((name) => [name, z.number().optional()])),
}) as unknown as z.ZodType<LicencesItem>);

export function readLicencesItem(item: TableItem): LicencesItem {
  return readItem('Licences', licencesItemSchema(), item);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const licencesModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.licences,
  title: 'Licences (limits and use)',
  module: 'licences.ts',
  indexes: {},
  items: [{ example: () => licenceKeys.item(EXAMPLE_CLIENT) }],
  accessPatterns: [{ name: 'A tenant\'s licences', serves: '`GET licenses`; every device-user write (conditional ADD)', builders: ['keys.licence.item'], example: () => licenceKeys.item(EXAMPLE_CLIENT) }],
}));
