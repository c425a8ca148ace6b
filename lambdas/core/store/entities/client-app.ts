import type * as z from 'zod';
import { ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, referenceList, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

export const clientAppKeys = {
  item: (client: string, appReference: string): ItemKeys => ({
    pk: `${tenantPrefix(client)}APPS`,
    sk: `APP#${part(appReference)}`,
    entity: ENTITY.clientApp,
  }),
  // Narrowed to the apps' own sort keys: the partition also holds the versions a change of an app keeps.
  list: (client: string): ListKey => referenceList(`${tenantPrefix(client)}APPS`, 'APP#', undefined),
};

/** A tenant's client app (`keys.clientApp`), stored exactly as the contract shows it. */
export const clientAppItemSchema = /* @__PURE__ */ onFirstUse(() => ClientAppConfiguration);
export type ClientAppItem = z.infer<ReturnType<typeof clientAppItemSchema>>;

export function readClientApp(item: TableItem): ClientAppItem {
  return readItem('ClientApp', clientAppItemSchema(), item);
}

/** The app's item: its attributes under the app's keys. */
export function clientAppToItem(client: string, app: ClientAppItem): TableItem {
  return { ...clientAppKeys.item(client, app.app_reference), ...app };
}

/** The app as the API answers it. */
export function toClientApp(stored: ClientAppItem): ClientAppConfiguration {
  return stored;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const clientAppModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.clientApp,
  title: 'Client app',
  module: 'client-app.ts',
  indexes: {},
  items: [{ example: () => clientAppKeys.item(EXAMPLE_CLIENT, '<app_reference>') }],
  accessPatterns: [
    {
      name: 'List client apps; find the app for a foreign token issuer',
      serves: '`GET account/apps`; every client-app call (a tenant has few apps)',
      builders: ['keys.clientApp.list'],
      example: () => clientAppKeys.list(EXAMPLE_CLIENT),
    },
  ],
}));
