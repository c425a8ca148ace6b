import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import type { Principal } from '#core/auth/principal.ts';
import { ForbiddenError, UnauthorizedError } from '#core/errors.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import {
  decideSupportAccess,
  getSupportAccess,
  listSupportAccess,
  requestSupportAccess,
  withdrawSupportAccess,
  type Actor,
} from './support-access-service.ts';

/**
 * The group's endpoints, in the contract's order. Contract ids are plain strings to the type system, so the order
 * is what types each route; `named` checks at load that each one is the endpoint its name says.
 */
const [list, get, decide, internalList, internalCreate, internalGet, internalCancel, byStatus] = supportAccessEndpoints;

function named(endpoint: { id: string }, id: string): void {
  if (endpoint.id !== id) throw new Error(`support-access handler expected ${id}, found ${endpoint.id}`);
}
named(list, 'admin.supportaccess.list');
named(get, 'admin.supportaccess.get');
named(decide, 'admin.supportaccess.decide');
named(internalList, 'internal.clients.supportaccess.list');
named(internalCreate, 'internal.clients.supportaccess.create');
named(internalGet, 'internal.clients.supportaccess.get');
named(internalCancel, 'internal.clients.supportaccess.cancel');
named(byStatus, 'internal.supportaccess.by-status');

/** Every endpoint of the group has a `{client}` in its path except the cross-tenant list: the router checked it. */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  return input.client as string;
}

/** Who is acting, as the request records it: the token's email, else its subject. */
function actorOf(principal: Principal | undefined): Actor {
  if (principal === undefined) throw new UnauthorizedError();
  if (principal.kind !== 'user') throw new ForbiddenError('Only a portal user may change a support-access request');
  return { id: principal.email ?? principal.subject };
}

/**
 * Lambda entry of the `support-access` group: staff ask a tenant for a role (internal console), the tenant decides
 * (admin surface), the expiry job (lambdas/jobs) ends what is due. States and transitions: state-machine.ts.
 */
export const handler = createApiHandler({
  group: 'support-access',
  endpoints: supportAccessEndpoints,
  routes: {
    [list.id]: implement(list, async (input, deps) =>
      listSupportAccess(deps, { client: clientOf(input), state: input.query.approval_state, ...input.query }),
    ),
    [get.id]: implement(get, async (input, deps) => getSupportAccess(deps, clientOf(input), input.params.request_reference)),
    [decide.id]: implement(decide, async (input, deps) => {
      // Staff in support mode act inside the tenant, but must never approve their own access.
      const supportMode = input.access?.supportReference ?? (input.principal?.kind === 'user' ? input.principal.supportReference : undefined);
      if (supportMode !== undefined) {
        throw new ForbiddenError('Support access cannot be decided in support mode');
      }
      return decideSupportAccess(deps, clientOf(input), input.params.request_reference, input.body, actorOf(input.principal));
    }),
    [internalList.id]: implement(internalList, async (input, deps) =>
      listSupportAccess(deps, { client: clientOf(input), state: input.query.approval_state, ...input.query }),
    ),
    [internalCreate.id]: implement(internalCreate, async (input, deps) =>
      reply(await requestSupportAccess(deps, clientOf(input), input.body, actorOf(input.principal)), { status: 201 }),
    ),
    [internalGet.id]: implement(internalGet, async (input, deps) =>
      getSupportAccess(deps, clientOf(input), input.params.request_reference),
    ),
    [internalCancel.id]: implement(internalCancel, async (input, deps) =>
      withdrawSupportAccess(deps, clientOf(input), input.params.request_reference, actorOf(input.principal)),
    ),
    [byStatus.id]: implement(byStatus, async (input, deps) =>
      listSupportAccess(deps, { state: input.params.approval_status, ...input.query }),
    ),
  },
});
