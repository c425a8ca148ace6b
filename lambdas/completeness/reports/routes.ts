import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { implementForTenant } from '#core/http/route.ts';
import { visibleDevice, visibleDeviceUser } from '../../devices/public.ts';
import { listCompleteness, listOwnDays, ownDeviceDays, ownDeviceUserDays } from './days.ts';
import { listCompletenessEntries } from './entries.ts';

const list = endpointOf(completenessEndpoints, 'client.completeness.list');
const device = endpointOf(completenessEndpoints, 'client.completeness.device');
const deviceUser = endpointOf(completenessEndpoints, 'client.completeness.device-user');
const entries = endpointOf(completenessEndpoints, 'client.completeness.entries');

/**
 * The completeness reports: the days of a cut, of one device, of one device user, and the entries behind a count. A
 * device or device user outside the caller's groups answers exactly as a missing one (404), as their logs do.
 */
export const reportRoutes = {
  [list.id]: implementForTenant(list, ({ caller, query }) => listCompleteness(caller, query)),
  [device.id]: implementForTenant(device, async ({ caller, params, query }) => {
    await visibleDevice(caller, params.device_reference);
    return listOwnDays(caller, ownDeviceDays(caller.tenant, params.device_reference), query);
  }),
  [deviceUser.id]: implementForTenant(deviceUser, async ({ caller, params, query }) => {
    await visibleDeviceUser(caller, params.device_user_reference);
    return listOwnDays(caller, ownDeviceUserDays(caller.tenant, params.device_user_reference), query);
  }),
  [entries.id]: implementForTenant(entries, ({ caller, query }) => listCompletenessEntries(caller, query)),
};
