import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, implementForTenant } from '#core/http/route.ts';
import { listCountries } from '../metrics/public.ts';
import { telemetryRoutes } from './telemetry-routes.ts';
import { getLicences, listAllLicences, listClients, listStatistics, setLicenceLimits } from './licence-service.ts';
import { apiRecorders } from '../api-recorders.ts';

/** The group's endpoints, picked by id (the two telemetry endpoints: ./telemetry-routes.ts). */
const licensesGet = endpointOf(licenceEndpoints, 'admin.licenses.get');
const clientsList = endpointOf(licenceEndpoints, 'internal.clients.list');
const clientLicensesPut = endpointOf(licenceEndpoints, 'internal.clients.licenses.put');
const countriesList = endpointOf(licenceEndpoints, 'internal.countries.list');
const licensesList = endpointOf(licenceEndpoints, 'internal.licenses.list');
const statisticsList = endpointOf(licenceEndpoints, 'internal.statistics.list');

/**
 * Lambda entry of the `licences` group: a tenant's licences, and the internal console's client endpoints (clients,
 * licence limits, statistics, countries). Telemetry endpoints of the group are wired by the telemetry part.
 */
export const handler = createApiHandler({
  group: 'licences',
  recorders: apiRecorders,
  endpoints: licenceEndpoints,
  routes: {
    ...telemetryRoutes,
    [licensesGet.id]: implementForTenant(licensesGet, ({ caller }) => getLicences(caller)),
    [clientsList.id]: implement(clientsList, (input, deps) => listClients(deps, input.query)),
    [clientLicensesPut.id]: implementForTenant(clientLicensesPut, ({ caller, body }) => setLicenceLimits(caller, body)),
    [countriesList.id]: implement(countriesList, (input, deps) => listCountries(deps, input.query)),
    [licensesList.id]: implement(licensesList, (input, deps) => listAllLicences(deps, input.query)),
    [statisticsList.id]: implement(statisticsList, (input, deps) => listStatistics(deps, input.query)),
  },
});
