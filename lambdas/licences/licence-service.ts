import type { Dependencies } from '#core/dependencies.ts';
import { NotFoundError } from '#core/errors.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { actorOf } from '#core/auth/actor.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { limitAttribute, readLicences, readLimits } from './licence-usage.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readAccount, type AccountItem } from '#core/store/entities/account.ts';
import { readLicencesItem } from '#core/store/entities/licences.ts';
import { readPayloadTotals } from '#core/store/entities/payload-metrics.ts';
import type { Page } from '#core/store/cursor.ts';
import { listPage, type QueryOf } from '#core/store/paging.ts';
import type { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { readDashboard } from '../metrics/public.ts';
import { ENTITY, keys } from '#core/store/keys.ts';
import { SERVICES } from '#shared/constants/devices.ts';
import {
  ClientLicenseLimits,
  ClientStatistics,
  ClientSummary,
  type LicenceLimits,
  type Licences,
} from '#shared/contract/entities/licences.ts';

type Deps = Pick<Dependencies, 'table' | 'clock' | 'cursors'>;

/** The internal lists' query: paging, with the optional one-client filter. */
export type ClientListQuery = QueryOf<typeof licenceEndpoints, 'internal.licenses.list'>;

/** `GET licenses` (tenant): limits and use per service, one GetItem. */
export async function getLicences({ deps, tenant: client }: TenantCaller): Promise<Licences> {
  return readLicences(client, licencesOf(await deps.table.get(keys.licence.item(client))));
}

/**
 * `PUT /clients/{client}/licenses` (staff): sets every limit (the body holds all eight) on the licence item, leaving
 * the use counters alone. An unknown client is a 404: limits of a tenant that does not exist would be a stray item.
 */
export async function setLicenceLimits(caller: TenantCaller, limits: LicenceLimits): Promise<ClientLicenseLimits> {
  const { deps, tenant: client } = caller;
  const actor = actorOf(caller.principal);
  if ((await deps.table.get(keys.account.item(client))) === undefined) throw new NotFoundError('Client not found');
  const now = deps.clock.now().toISOString();
  const set: Record<string, unknown> = { entity: ENTITY.licences, client, updated_at: now, updated_by: actor };
  for (const service of SERVICES) set[limitAttribute(service)] = limits[service];
  await deps.table.update(keys.licence.item(client), { set });
  return ClientLicenseLimits.parse({ client, ...limits, updated_at: now, updated_by: actor });
}

/**
 * One page of clients (Query on the provider's account list, `keys.account.listAll()`), or the one named client.
 * The cursor is bound to the provider tenant and the list.
 */
async function accountsPage(
  deps: Deps,
  query: ClientListQuery,
): Promise<{ items: AccountItem[]; last_key?: string } | { count: number }> {
  if (query.client !== undefined) {
    const item = await deps.table.get(keys.account.item(query.client));
    const items = item === undefined ? [] : [readAccount(item)];
    return query.result_type === 'total' ? { count: items.length } : { items };
  }
  const page = await listPage(deps, { client: ADMIN_CLIENT, query: keys.account.listAll(), page: query, toData: readAccount });
  return 'data' in page ? { items: page.data, ...(page.last_key === undefined ? {} : { last_key: page.last_key }) } : page;
}

/** The licence item, typed, when the client has one. */
const licencesOf = (item: TableItem | undefined) => (item === undefined ? undefined : readLicencesItem(item));

/** Items by client of one per-client key, read with one BatchGet for the page. */
async function perClient(deps: Deps, clients: readonly string[], key: (client: string) => { pk: string; sk: string }): Promise<Map<string, TableItem>> {
  const items = await deps.table.batchGet(clients.map(key));
  const byKey = new Map(items.map((item) => [`${item.pk}\u0000${item.sk}`, item]));
  return new Map(
    clients.flatMap((client) => {
      const { pk, sk } = key(client);
      const item = byKey.get(`${pk}\u0000${sk}`);
      return item === undefined ? [] : [[client, item] as const];
    }),
  );
}

/** Maps a page of accounts with the per-client items the mapping needs. */
async function mapAccounts<T>(
  deps: Deps,
  query: ClientListQuery,
  map: (clients: string[]) => Promise<(account: AccountItem) => T>,
): Promise<Page<T> | { count: number }> {
  const page = await accountsPage(deps, query);
  if ('count' in page) return page;
  const clients = page.items.map((account) => account.client);
  const toData = await map(clients);
  const data = page.items.map(toData);
  return { count: data.length, data, ...(page.last_key === undefined ? {} : { last_key: page.last_key }) };
}

/**
 * `GET /clients`: every tenant with the limits in force: those staff set, else the default every licence screen and
 * check uses (`readLimits`), so the console never says "not set" of a limit the API enforces.
 */
export function listClients(deps: Deps, query: ClientListQuery): Promise<Page<ClientSummary> | { count: number }> {
  return mapAccounts(deps, query, async (clients) => {
    const licences = await perClient(deps, clients, keys.licence.item);
    return (account) => {
      const licence = licencesOf(licences.get(account.client));
      return ClientSummary.parse({
        client: account.client,
        ...(account.display_name === undefined ? {} : { display_name: account.display_name }),
        ...(account.created_at === undefined ? {} : { created_at: account.created_at }),
        ...(account.is_active === undefined ? {} : { is_active: account.is_active }),
        limits: readLimits(licence),
      });
    };
  });
}

/** `GET /licenses` (internal): limits and use of every client (or the one named). */
export function listAllLicences(deps: Deps, query: ClientListQuery): Promise<Page<Licences> | { count: number }> {
  return mapAccounts(deps, query, async (clients) => {
    const licences = await perClient(deps, clients, keys.licence.item);
    return (account) => readLicences(account.client, licencesOf(licences.get(account.client)));
  });
}

/**
 * `GET /statistics`: per client, from the counters kept at write time (no Scan): devices and device users from the
 * dashboard counters (every state), payloads from the metric totals, and under `stores` the dashboard breakdown and
 * the licence use, so staff see a tenant's size and licence headroom in one list.
 */
export function listStatistics(deps: Deps, query: ClientListQuery): Promise<Page<ClientStatistics> | { count: number }> {
  return mapAccounts(deps, query, async (clients) => {
    const [dashboards, licences, totals] = await Promise.all([
      perClient(deps, clients, keys.device.dashboardCounters),
      perClient(deps, clients, keys.licence.item),
      perClient(deps, clients, keys.metrics.totals),
    ]);
    return (account) => {
      const { client } = account;
      const dashboard = readDashboard(dashboards.get(client));
      const total = totals.get(client);
      const payloads = total === undefined ? 0 : readPayloadTotals(total).payloads;
      const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, value) => total + value, 0);
      return ClientStatistics.parse({
        client,
        devices: sum(dashboard.devices),
        device_users: sum(dashboard.users),
        payloads: Math.max(0, Math.trunc(payloads)),
        stores: { devices: dashboard.devices, device_users: dashboard.users, licences: readLicences(client, licencesOf(licences.get(client))).data },
      });
    };
  });
}
