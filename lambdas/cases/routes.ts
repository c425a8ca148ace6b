import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { caseEndpoints } from '#shared/contract/endpoints/cases.ts';
import { implementForTenant } from '#core/http/route.ts';
import { reply } from '#core/http/reply.ts';
import { closeCase, createCase, getCase, listCases, updateCase } from './cases.ts';
import { listCasePeople } from './people.ts';

const list = endpointOf(caseEndpoints, 'client.cases.list');
const people = endpointOf(caseEndpoints, 'client.cases.people');
const create = endpointOf(caseEndpoints, 'client.cases.create');
const get = endpointOf(caseEndpoints, 'client.cases.get');
const update = endpointOf(caseEndpoints, 'client.cases.update');
const close = endpointOf(caseEndpoints, 'client.cases.close');

/** The case endpoints: the role's action is checked by the router, the team by every service (case-access.ts). */
export const caseRoutes = {
  [list.id]: implementForTenant(list, ({ caller, query }) => listCases(caller, query)),
  [people.id]: implementForTenant(people, ({ caller, query }) => listCasePeople(caller, query)),
  [create.id]: implementForTenant(create, async ({ caller, body }) => reply(await createCase(caller, body), { status: 201 })),
  [get.id]: implementForTenant(get, ({ caller, params }) => getCase(caller, params.case_ref)),
  [update.id]: implementForTenant(update, ({ caller, params, body }) => updateCase(caller, params.case_ref, body)),
  [close.id]: implementForTenant(close, ({ caller, params }) => closeCase(caller, params.case_ref)),
};
