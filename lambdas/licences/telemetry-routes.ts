import { listLatestTelemetry, listLatestTelemetryAcrossClients } from '../device-data/reads.ts';
import { groupScope } from '#core/auth/access/group-scope.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';

// The contract's order types each route; the ids are checked at load so a reordering fails loudly.
const [clientTelemetry, telemetryList] = [licenceEndpoints[3], licenceEndpoints[7]];
if (clientTelemetry.id !== 'internal.clients.telemetry') throw new Error(`licences telemetry routes expected internal.clients.telemetry, found ${clientTelemetry.id}`);
if (telemetryList.id !== 'internal.telemetry.list') throw new Error(`licences telemetry routes expected internal.telemetry.list, found ${telemetryList.id}`);

/**
 * Internal console telemetry (staff only; the router checked the surface): one client's latest reports, or every
 * client's, client by client (`?client=` narrows to one). Staff roles carry no group conditions today, so their
 * group scope is every group; it is asked all the same, like on every endpoint that reads device data.
 */
export const telemetryRoutes: Routes = {
  [clientTelemetry.id]: implement(clientTelemetry, (input, deps) => {
    if (input.client === undefined) throw new Error('internal client telemetry needs the path client');
    return listLatestTelemetry(deps, input.client, input.query, groupScope(deps, input.client, input.access, clientTelemetry.action));
  }),
  [telemetryList.id]: implement(telemetryList, (input, deps) => {
    const { client, ...query } = input.query;
    if (client === undefined) return listLatestTelemetryAcrossClients(deps, query);
    return listLatestTelemetry(deps, client, query, groupScope(deps, client, input.access, telemetryList.action));
  }),
};
