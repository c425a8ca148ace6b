import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { productionEndpoints } from '#shared/contract/endpoints/productions.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant } from '#core/http/route.ts';
import { createCaseProduction, createSearchProduction, downloadProduction, getProduction, listProductions } from './productions-service.ts';

const createForCase = endpointOf(productionEndpoints, 'client.productions.create-for-case');
const create = endpointOf(productionEndpoints, 'client.productions.create');
const list = endpointOf(productionEndpoints, 'client.productions.list');
const get = endpointOf(productionEndpoints, 'client.productions.get');
const download = endpointOf(productionEndpoints, 'client.productions.download');

/** The production endpoints: the role's action is checked by the router, a case's team by the service. */
export const productionRoutes = {
  [createForCase.id]: implementForTenant(createForCase, async ({ caller, params, body }) => reply(await createCaseProduction(caller, params.case_ref, body), { status: 201 })),
  [create.id]: implementForTenant(create, async ({ caller, body }) => reply(await createSearchProduction(caller, body), { status: 201 })),
  [list.id]: implementForTenant(list, ({ caller, query }) => listProductions(caller, query)),
  [get.id]: implementForTenant(get, ({ caller, params }) => getProduction(caller, params.production_reference)),
  [download.id]: implementForTenant(download, ({ caller, params }) => downloadProduction(caller, params.production_reference)),
};
