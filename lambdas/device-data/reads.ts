import type { DeviceTelemetry } from '#shared/contract/entities/telemetry.ts';
import type { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import type { deviceDataEndpoints } from '#shared/contract/endpoints/device-data.ts';
import type { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { inDeviceScope } from '../core/auth/access/device-group-scope.ts';
import type { GroupScope } from '../core/auth/access/group-scope.ts';
import type { Dependencies } from '../core/dependencies.ts';
import type { TenantCaller } from '../core/http/caller.ts';
import { InternalError, ValidationError } from '../core/errors.ts';
import type { TableItem } from '../core/ports/table-store.ts';
import { describeQuery, type Page } from '../core/store/cursor.ts';
import { allOf, listPage, notDeletedByRetention, type BatchFilter, type ItemFilter, type QueryOf } from '../core/store/paging.ts';
import { readAccount } from '../core/store/entities/account.ts';
import { readDevice } from '../core/store/entities/device.ts';
import { readDeviceActivity, toDeviceActivity } from '../core/store/entities/device-activity.ts';
import { readDeviceLog, toDeviceLog } from '../core/store/entities/device-log.ts';
import { readGps, toGps } from '../core/store/entities/gps.ts';
import { readTelemetry, toDeviceTelemetry } from '../core/store/entities/telemetry.ts';
import { keys, type ListKey, type TimedList } from '../core/store/keys.ts';
import { timedPage, type TimedQuery } from './time-page.ts';

type ReadDependencies = Pick<Dependencies, 'table' | 'cursors' | 'logger'>;

/**
 * Reads a stored record with its entity module and maps it to the contract entity. Decision: a device data record
 * that cannot be read is left out of the page and logged, never a 500 (one bad line must not hide a device's logs).
 */
function reader<S, T>(deps: ReadDependencies, read: (item: TableItem) => S, answer: (stored: S) => T) {
  return (item: TableItem): T | undefined => {
    try {
      return answer(read(item));
    } catch (error) {
      if (!(error instanceof InternalError)) throw error;
      deps.logger.warn('device data record unreadable', { pk: item.pk, sk: item.sk, problem: error.message });
      return undefined;
    }
  };
}

/** Keeps the records whose attribute `name` is `value` (no filter when `value` is undefined); unreadable ones go. */
const equals = <T>(record: (item: TableItem) => T | undefined, name: keyof T, value: unknown): ItemFilter | undefined =>
  value === undefined ? undefined : (item) => record(item)?.[name] === value;

/** The lists a timed record is kept on that these reads use: one device's, one device user's, the tenant's. */
interface TimedLists {
  byDevice(client: string, deviceReference: string): TimedList;
  byDeviceUser(client: string, deviceUserReference: string): TimedList;
  byTenant(client: string): TimedList;
}

/**
 * The narrowest list the query names (device, device user), else the tenant's: still one Query. Not the group's list:
 * it holds a record under its device's group when written, and the device's group now is what a `group` filter
 * names (core/auth/access/device-group-scope.ts), so the group is a filter while paging.
 */
function narrowestList(
  lists: TimedLists,
  client: string,
  query: { device_reference?: string | undefined; device_user_reference?: string | undefined },
): TimedList {
  if (query.device_reference !== undefined) return lists.byDevice(client, query.device_reference);
  if (query.device_user_reference !== undefined) return lists.byDeviceUser(client, query.device_user_reference);
  return lists.byTenant(client);
}

/**
 * A device data list's batch filter: records retention has not deleted that pass `keep`, whose device is in the
 * `group` asked for (if any) and in the caller's group scope, both by the device's group now.
 */
function deviceData(
  deps: ReadDependencies,
  client: string,
  scope: GroupScope,
  { keep, group }: { keep?: ItemFilter | undefined; group?: string | undefined },
): BatchFilter | undefined {
  return inDeviceScope(deps, client, scope, { keep: allOf(notDeletedByRetention, keep), group });
}

/** The logs list's query; the per-device-user path adds its user (a path parameter, not a query field). */
export type LogQuery = QueryOf<typeof deviceDataEndpoints, 'client.device-logs.list'> & { device_user_reference?: string | undefined };

/**
 * Device logs newest first by log time. The narrowest list first (device, device user, tenant), each one Query with
 * the date range as key condition; the remaining filters (the group among them) apply while paging.
 */
export function listLogs(caller: TenantCaller, query: LogQuery) {
  const { deps, tenant: client } = caller;
  const list = narrowestList(keys.deviceLog, client, query);
  const log = reader(deps, readDeviceLog, toDeviceLog);
  const keep = allOf(
    equals(log, 'log_level', query.log_level),
    query.device_reference === undefined ? undefined : equals(log, 'device_user_reference', query.device_user_reference),
  );
  const filters = { log_level: query.log_level, device_user_reference: query.device_user_reference, group: query.group };
  return timedPage(deps, client, { list, query, filters, keep: deviceData(deps, client, caller.groupScope(), { keep, group: query.group }), toData: log });
}

export type GpsQuery = QueryOf<typeof deviceDataEndpoints, 'client.gps.list'> & { device_user_reference?: string | undefined };

/** GPS fixes newest first by fix time; lists chosen as for logs. */
export function listGps(caller: TenantCaller, query: GpsQuery) {
  const { deps, tenant: client } = caller;
  const list = narrowestList(keys.gps, client, query);
  const fix = reader(deps, readGps, toGps);
  const keep = query.device_reference === undefined ? undefined : equals(fix, 'device_user_reference', query.device_user_reference);
  const filters = { device_user_reference: query.device_user_reference, group: query.group };
  return timedPage(deps, client, { list, query, filters, keep: deviceData(deps, client, caller.groupScope(), { keep, group: query.group }), toData: fix });
}

/** One device's telemetry reports newest first by receive time (the first is the latest). */
export async function listTelemetryHistory(caller: TenantCaller, deviceReference: string, query: Omit<TimedQuery, 'result_type'>) {
  const { deps, tenant: client } = caller;
  const list = keys.telemetry.historyOf(client, deviceReference);
  const read = reader(deps, readTelemetry, toDeviceTelemetry);
  const page = await timedPage(deps, client, {
    list,
    query: { ...query, result_type: 'page' },
    filters: {},
    keep: deviceData(deps, client, caller.groupScope(), {}),
    toData: read,
  });
  if (!('data' in page)) throw new Error('a telemetry history is a page');
  return page;
}

export type ActivityQuery = QueryOf<typeof auditEndpoints, 'admin.device-activities.list'>;

/**
 * Device API activity newest first: per device (gsi1) or the tenant's (table), other filters while paging. A record
 * keeps the group its device's token named at the call; like device data, it is seen by its device's group now.
 */
export function listDeviceActivities(caller: TenantCaller, query: ActivityQuery) {
  const { deps, tenant: client } = caller;
  const list: TimedList =
    query.device_reference !== undefined
      ? { ...keys.deviceActivity.listByDevice(client, query.device_reference), sortPrefix: '' }
      : { ...keys.deviceActivity.list(client), sortPrefix: '' };
  const activity = reader(deps, readDeviceActivity, toDeviceActivity);
  const keep = allOf(equals(activity, 'device_user_reference', query.device_user_reference), equals(activity, 'is_allowed', query.is_allowed));
  const filters = { device_user_reference: query.device_user_reference, group: query.group, is_allowed: query.is_allowed };
  return timedPage(deps, client, { list, query, filters, keep: deviceData(deps, client, caller.groupScope(), { keep, group: query.group }), toData: activity });
}

// ---------------------------------------------------------------------------------------------------------------
// Latest telemetry across a fleet: the tenant's latest-reports index, or a page of the device list and one BatchGet of
// those devices' latest reports.

export type FleetQuery = QueryOf<typeof deviceEndpoints, 'admin.telemetry.list'>;

function deviceReferenceOf(item: TableItem): string | undefined {
  return readDevice(item).device_reference;
}

/** The latest report of each device that has one, by device reference (a report is found by its key alone). */
async function latestOf(deps: ReadDependencies, client: string, devices: readonly TableItem[]): Promise<Map<string, TableItem>> {
  const references = devices.map((device) => readDevice(device).device_reference);
  const found = new Map((await deps.table.batchGet(references.map((reference) => keys.telemetry.latest(client, reference)))).map((item) => [item.pk, item]));
  return new Map(
    references.flatMap((reference) => {
      const item = found.get(keys.telemetry.latest(client, reference).pk);
      return item === undefined ? [] : [[reference, item] as const];
    }),
  );
}

/**
 * Whether every device's latest report of the tenant is on the latest-reports index (the account's
 * `telemetry_indexed_at`: a new tenant's account, or the `telemetry-index-backfill` job once it walked the fleet).
 */
async function telemetryIndexed(deps: ReadDependencies, client: string): Promise<boolean> {
  const account = await deps.table.get(keys.account.item(client));
  return account !== undefined && readAccount(account).telemetry_indexed_at !== undefined;
}

/**
 * Latest telemetry of a tenant's devices (devices without a report are left out), in device order. Without a `group`,
 * once the tenant is indexed, one Query of the tenant's latest reports (entities/telemetry.ts): what it reads is the
 * page, however many devices never reported. Each report is seen by its device's group now, as device data is
 * (core/auth/access/device-group-scope.ts). With a `group` (the group's device list is the narrower read) or before the
 * tenant is indexed, the device list is paged (core/store/paging.ts): each batch of devices in the caller's group scope
 * has its latest reports read in one BatchGet, and the devices with one are kept, so a page may be short.
 */
export async function listLatestTelemetry(caller: TenantCaller, query: FleetQuery): Promise<Page<DeviceTelemetry> | { count: number }> {
  const { deps, tenant: client } = caller;
  const scope = caller.groupScope();
  const read = reader(deps, readTelemetry, toDeviceTelemetry);
  if (query.group === undefined && (await telemetryIndexed(deps, client))) {
    return listPage(deps, {
      client,
      query: keys.telemetry.listLatest(client),
      filters: { telemetry: 'latest' },
      page: query,
      keep: inDeviceScope(deps, client, scope),
      toData: read,
    });
  }
  const list: ListKey = query.group === undefined ? keys.device.list(client) : keys.device.listByGroup(client, query.group);
  const latest = new Map<string, TableItem>();
  const withReport = async (devices: readonly TableItem[]) => {
    const visible = await scope.filter(devices);
    for (const [reference, item] of await latestOf(deps, client, visible)) latest.set(reference, item);
    return visible.filter((device) => latest.has(deviceReferenceOf(device) ?? ''));
  };
  return listPage(deps, {
    client,
    query: list,
    filters: { telemetry: 'latest' },
    page: query,
    keep: withReport,
    toData: (device) => read(latest.get(deviceReferenceOf(device) ?? '') as TableItem),
  });
}

/** Clients a cross-client page visits at most (a page may be short; its cursor goes on from where it stopped). */
const MAX_CLIENTS_PER_PAGE = 25;
/** Accounts read to find where a cursor's client stands in the list. */
const MAX_ACCOUNTS = 10_000;

/**
 * Internal console: latest telemetry across every client, client by client (the account list, `keys.account.listAll`),
 * each client's devices in order. The cursor names the client and that client's device cursor; one request visits
 * at most 25 clients. `result_type=total` is refused (it would read every tenant's fleet): count one client instead.
 */
export async function listLatestTelemetryAcrossClients(deps: ReadDependencies, query: Omit<FleetQuery, 'group'>): Promise<Page<DeviceTelemetry> | { count: number }> {
  if (query.result_type === 'total') throw new ValidationError(['query.result_type: Count one client at a time (query.client)']);
  const accounts = keys.account.listAll();
  const binding = { client: 'admin', query: describeQuery(accounts, { telemetry: 'latest' }) };
  const cursor = query.last_key === undefined ? undefined : deps.cursors.decode(query.last_key, binding);
  const read = reader(deps, readTelemetry, toDeviceTelemetry);
  const clients: string[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...accounts, ...(startKey ? { startKey } : {}) });
    for (const item of page.items) clients.push(readAccount(item).client);
    startKey = page.lastKey;
  } while (startKey !== undefined && clients.length < MAX_ACCOUNTS);
  clients.sort();

  let position = cursor === undefined ? 0 : clients.findIndex((client) => client >= (cursor.c ?? ''));
  if (position < 0) position = clients.length;
  let deviceCursor: Record<string, string> | undefined =
    cursor !== undefined && clients[position] === cursor.c && cursor.pk !== undefined ? withoutClient(cursor) : undefined;
  const data: DeviceTelemetry[] = [];
  let visited = 0;
  while (position < clients.length && data.length < query.limit && visited < MAX_CLIENTS_PER_PAGE) {
    const client = clients[position] as string;
    visited += 1;
    const list = keys.device.list(client);
    const page = await deps.table.query({ ...list, limit: query.limit - data.length, ...(deviceCursor ? { startKey: deviceCursor } : {}) });
    const latest = await latestOf(deps, client, page.items);
    for (const device of page.items) {
      const item = latest.get(deviceReferenceOf(device) ?? '');
      const value = item === undefined ? undefined : read(item);
      if (value !== undefined) data.push(value);
    }
    if (page.lastKey !== undefined) {
      deviceCursor = page.lastKey;
      if (data.length >= query.limit) {
        return { count: data.length, data, last_key: deps.cursors.encode({ c: client, ...page.lastKey }, binding) };
      }
      continue;
    }
    deviceCursor = undefined;
    position += 1;
  }
  const next = clients[position];
  const more = next !== undefined;
  return {
    count: data.length,
    data,
    ...(more ? { last_key: deps.cursors.encode({ c: next, ...(deviceCursor ?? {}) }, binding) } : {}),
  };
}

function withoutClient(cursor: Record<string, string>): Record<string, string> {
  const { c: _client, ...rest } = cursor;
  void _client;
  return rest;
}
