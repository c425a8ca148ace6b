import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import type { Principal } from '#core/auth/principal.ts';
import { UnauthorizedError } from '#core/errors.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { listCountries } from '../metrics/carriers.ts';
import { telemetryRoutes } from './telemetry-routes.ts';
import { getLicences, listAllLicences, listClients, listStatistics, setLicenceLimits } from './licence-service.ts';

/**
 * The group's endpoints, in the contract's order (the order is what types each route; checked by id at load).
 * The two telemetry endpoints (holes) are wired by the telemetry part.
 */
const [licensesGet, clientsList, clientLicensesPut, , countriesList, licensesList, statisticsList] = licenceEndpoints;

const expected: Array<[{ id: string }, string]> = [
  [licensesGet, 'admin.licenses.get'],
  [clientsList, 'internal.clients.list'],
  [clientLicensesPut, 'internal.clients.licenses.put'],
  [countriesList, 'internal.countries.list'],
  [licensesList, 'internal.licenses.list'],
  [statisticsList, 'internal.statistics.list'],
];
for (const [endpoint, id] of expected) {
  if (endpoint.id !== id) throw new Error(`licences handler expected ${id}, found ${endpoint.id}`);
}

/** The path's `{client}` (the router checked it against the caller, or that the caller is staff). */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  if (input.client === undefined) throw new Error('licences route needs the path client');
  return input.client;
}

function actorOf(principal: Principal | undefined): string {
  if (principal?.kind !== 'user') throw new UnauthorizedError();
  return principal.email ?? principal.subject;
}

/**
 * Lambda entry of the `licences` group: a tenant's licences, and the internal console's client endpoints (clients,
 * licence limits, statistics, countries). Telemetry endpoints of the group are wired by the telemetry part.
 */
export const handler = createApiHandler({
  group: 'licences',
  endpoints: licenceEndpoints,
  routes: {
    ...telemetryRoutes,
    [licensesGet.id]: implement(licensesGet, (input, deps) => getLicences(deps, clientOf(input))),
    [clientsList.id]: implement(clientsList, (input, deps) => listClients(deps, input.query)),
    [clientLicensesPut.id]: implement(clientLicensesPut, (input, deps) =>
      setLicenceLimits(deps, clientOf(input), input.body, actorOf(input.principal)),
    ),
    [countriesList.id]: implement(countriesList, (input, deps) => listCountries(deps, input.query)),
    [licensesList.id]: implement(licensesList, (input, deps) => listAllLicences(deps, input.query)),
    [statisticsList.id]: implement(statisticsList, (input, deps) => listStatistics(deps, input.query)),
  },
});
