import { defineEndpoint } from '../endpoint.ts';
import { Country } from '../entities/carriers.ts';
import { pageOrTotal, paginated } from '../entities/common.ts';
import { ClientLicenseLimits, ClientStatistics, ClientSummary, LicenceLimits, Licences } from '../entities/licences.ts';
import { DeviceTelemetry } from '../entities/telemetry.ts';
import { ClientId } from '../fields.ts';
import { listQuery } from './query.ts';

const internal = { surface: 'internal', auth: 'user', group: 'licences' } as const;

export const licenceEndpoints = [
  defineEndpoint({
    surface: 'admin',
    auth: 'user',
    group: 'licences',
    id: 'admin.licenses.get',
    method: 'GET',
    path: '/licenses',
    action: 'licenses:Read',
    summary: "The client's licence limits and usage per service.",
    response: Licences,
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.clients.list',
    method: 'GET',
    path: '/clients',
    action: 'internal:ListClients',
    summary: 'All clients (tenants).',
    query: listQuery({}),
    response: pageOrTotal(ClientSummary),
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.clients.licenses.put',
    method: 'PUT',
    path: '/clients/{client}/licenses',
    action: 'internal:UpdateLicenses',
    summary: "Set a client's licence limits (0 to 100000 per service).",
    body: LicenceLimits,
    response: ClientLicenseLimits,
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.clients.telemetry',
    method: 'GET',
    path: '/clients/{client}/telemetry',
    action: 'internal:ReadTelemetry',
    summary: "Latest telemetry of a client's devices.",
    query: listQuery({}),
    response: pageOrTotal(DeviceTelemetry),
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.countries.list',
    method: 'GET',
    path: '/countries',
    action: 'internal:ListCountries',
    summary: 'Countries and the carriers seen in each.',
    query: listQuery({}),
    response: paginated(Country),
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.licenses.list',
    method: 'GET',
    path: '/licenses',
    action: 'internal:ListLicenses',
    summary: 'Licence limits and usage of every client.',
    query: listQuery({ client: ClientId.optional() }),
    response: pageOrTotal(Licences),
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.statistics.list',
    method: 'GET',
    path: '/statistics',
    action: 'internal:ReadStatistics',
    summary: 'Per-client statistics and store integrity checks.',
    query: listQuery({ client: ClientId.optional() }),
    response: pageOrTotal(ClientStatistics),
  }),
  defineEndpoint({
    ...internal,
    id: 'internal.telemetry.list',
    method: 'GET',
    path: '/telemetry',
    action: 'internal:ReadTelemetry',
    summary: 'Latest device telemetry across clients.',
    query: listQuery({ client: ClientId.optional() }),
    response: pageOrTotal(DeviceTelemetry),
  }),
] as const;
