import { listLatestTelemetry, listLatestTelemetryAcrossClients } from '../device-data/public.ts';
import { callerOf } from '#core/http/caller.ts';
import { implement, implementForTenant, type Routes } from '#core/http/route.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';

const clientTelemetry = endpointOf(licenceEndpoints, 'internal.clients.telemetry');
const telemetryList = endpointOf(licenceEndpoints, 'internal.telemetry.list');

/**
 * Internal console telemetry (staff only; the router checked the surface): one client's latest reports, or every
 * client's, client by client (`?client=` narrows to one). Staff roles carry no group conditions today, so their
 * group scope is every group; it is asked all the same, like on every endpoint that reads device data.
 */
export const telemetryRoutes: Routes = {
  [clientTelemetry.id]: implementForTenant(clientTelemetry, ({ caller, query }) => listLatestTelemetry(caller, query)),
  [telemetryList.id]: implement(telemetryList, ({ caller, query: { client, ...query } }) => {
    if (client === undefined) return listLatestTelemetryAcrossClients(caller.deps, query);
    // The query's client is the tenant this call reads: the same caller, in that tenant.
    return listLatestTelemetry(callerOf({ ...caller, tenant: client }), query);
  }),
};
