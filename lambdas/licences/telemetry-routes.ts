import { listLatestTelemetry, listLatestTelemetryAcrossClients } from '#core/device-data/reads.ts';
import { implement, type Routes } from '#core/http/route.ts';
import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';

// The contract's order types each route; the ids are checked at load so a reordering fails loudly.
const [clientTelemetry, telemetryList] = [licenceEndpoints[3], licenceEndpoints[7]];
if (clientTelemetry.id !== 'internal.clients.telemetry') throw new Error(`licences telemetry routes expected internal.clients.telemetry, found ${clientTelemetry.id}`);
if (telemetryList.id !== 'internal.telemetry.list') throw new Error(`licences telemetry routes expected internal.telemetry.list, found ${telemetryList.id}`);

/**
 * Internal console telemetry (staff only; the router checked the surface): one client's latest reports, or every
 * client's, client by client (`?client=` narrows to one).
 */
export const telemetryRoutes: Routes = {
  [clientTelemetry.id]: implement(clientTelemetry, (input, deps) => {
    if (input.client === undefined) throw new Error('internal client telemetry needs the path client');
    return listLatestTelemetry(deps, input.client, input.query);
  }),
  [telemetryList.id]: implement(telemetryList, (input, deps) => {
    const { client, ...query } = input.query;
    return client === undefined ? listLatestTelemetryAcrossClients(deps, query) : listLatestTelemetry(deps, client, query);
  }),
};
