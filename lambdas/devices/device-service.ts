import { actorOf } from '#core/auth/actor.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { deactivateDeviceItem } from './deactivation.ts';
import { NotFoundError } from '#core/errors.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import type { Device } from '#shared/contract/entities/devices.ts';
import { readDevice, readDeviceHistory, toDevice, toDeviceHistory, type DeviceItem } from '#core/store/entities/device.ts';
import { fullName, searchFilter } from './device-lists.ts';
import { allOf, inScope, listPage, type QueryOf } from '#core/store/paging.ts';
import type { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';

/** A stored device as the contract shows it. */
function deviceOfItem(item: TableItem): Device {
  return toDevice(readDevice(item));
}

export type DeviceListQuery = QueryOf<typeof deviceEndpoints, 'admin.devices.list'>;

/**
 * Devices of the tenant. The narrowest key first: by device user (gsi2), else by group (gsi3), else all (gsi1);
 * the other filters apply to the page read.
 */
export function listDevices(caller: TenantCaller, query: DeviceListQuery) {
  const { deps: dependencies, tenant: client } = caller;
  const list =
    query.device_user_reference !== undefined
      ? keys.device.listByDeviceUser(client, query.device_user_reference)
      : query.group !== undefined
        ? keys.device.listByGroup(client, query.group)
        : keys.device.list(client);
  const keep = allOf(
    query.active_only === true ? (item) => !readDevice(item).is_deactivated : undefined,
    query.device_user_reference !== undefined && query.group !== undefined ? (item) => readDevice(item).group === query.group : undefined,
    searchFilter(query.search, readDevice, (device) => [device.device_reference, device.device_user_reference, device.email, device.first_name, device.surname, fullName(device)]),
    query.service === undefined ? undefined : (item) => readDevice(item).services.some((service) => service === query.service),
  );
  const filters = { active_only: query.active_only, search: query.search, service: query.service, group: query.group };
  return listPage(dependencies, { client, query: list, filters, page: query, keep: inScope(caller.groupScope(), keep), toData: deviceOfItem });
}

const deviceNotFound = () => new NotFoundError('Device not found');

/**
 * The device when it exists and its group is in the caller's scope; otherwise the 404 of a missing device (a device
 * of another group must not be told apart from one that does not exist).
 */
export async function visibleDevice(caller: TenantCaller, reference: string): Promise<DeviceItem> {
  const item = await caller.deps.table.get(keys.device.key(caller.tenant, reference), { consistent: true });
  return caller.groupScope().visible(item === undefined ? undefined : readDevice(item), deviceNotFound);
}

export async function getDevice(caller: TenantCaller, reference: string): Promise<Device> {
  return toDevice(await visibleDevice(caller, reference));
}

/**
 * DELETE = deactivate: the shared deactivation transaction (lambdas/devices/deactivation.ts: the device, its
 * dashboard counters, the group's actual_devices and its last-seen index item). Deactivating a deactivated device
 * changes nothing and answers it as it is. Re-activation is the device's own authentication.
 */
export async function deactivateDevice(caller: TenantCaller, reference: string): Promise<Device> {
  await visibleDevice(caller, reference);
  const { device } = await deactivateDeviceItem(caller.deps, caller.tenant, reference, { actor: actorOf(caller.principal), writer: caller });
  return toDevice(device);
}

/** A device's holding periods (who, which group, from, to), oldest first: a Query on the partition's `HISTORY#` keys. */
export async function listDeviceHistory(caller: TenantCaller, reference: string, query: QueryOf<typeof deviceEndpoints, 'admin.devices.history'>) {
  await visibleDevice(caller, reference);
  const { deps: dependencies, tenant: client } = caller;
  const scope = caller.groupScope();
  const list = { ...keys.device.partition(client, reference), sort: { beginsWith: keys.device.historyPrefix } };
  // Like every list, the periods show where their group is in scope (a period spent in another group stays hidden).
  return listPage(dependencies, { client, query: list, page: query, keep: inScope(scope), toData: (item) => toDeviceHistory(readDeviceHistory(item)) });
}
