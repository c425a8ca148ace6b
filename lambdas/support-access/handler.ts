import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { actorRecordOf } from '#core/auth/actor.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import { ForbiddenError } from '#core/errors.ts';
import { assertAssignedWithinOwn } from '../access/roles/grant-guard.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implement, implementForTenant, type RouteInput } from '#core/http/route.ts';
import {
  decideSupportAccess,
  getSupportAccess,
  listSupportAccess,
  requestSupportAccess,
  withdrawSupportAccess,
} from './support-access-service.ts';
import { apiRecorders } from '../api-recorders.ts';

const list = endpointOf(supportAccessEndpoints, 'admin.supportaccess.list');
const get = endpointOf(supportAccessEndpoints, 'admin.supportaccess.get');
const decide = endpointOf(supportAccessEndpoints, 'admin.supportaccess.decide');
const internalList = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.list');
const internalCreate = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.create');
const internalGet = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.get');
const internalCancel = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.cancel');
const byStatus = endpointOf(supportAccessEndpoints, 'internal.supportaccess.by-status');

/** Who acts: as the request records it (`requested_by`, `approved_by`), and as its security alerts say it. */
/** Support requests name who acted by their stable reference, with their name and e-mail as then (actorRecordOf). */
const actor = (input: Pick<RouteInput, 'principal'>): Actor => actorRecordOf(input.principal);

/**
 * Lambda entry of the `support-access` group: staff ask a tenant for a role (internal console), the tenant decides
 * (admin surface), the expiry job (lambdas/jobs) ends what is due. States and transitions: state-machine.ts.
 */
export const handler = createApiHandler({
  group: 'support-access',
  recorders: apiRecorders,
  endpoints: supportAccessEndpoints,
  routes: {
    [list.id]: implementForTenant(list, async (input, deps) =>
      listSupportAccess(deps, { client: input.client, state: input.query.approval_state, ...input.query }),
    ),
    [get.id]: implementForTenant(get, async (input, deps) => getSupportAccess(deps, input.client, input.params.request_reference)),
    [decide.id]: implementForTenant(decide, async (input, deps) => {
      // Staff in support mode act inside the tenant, but must never approve their own access.
      const supportMode = input.access?.supportReference ?? (input.principal?.kind === 'user' ? input.principal.supportReference : undefined);
      if (supportMode !== undefined) {
        throw new ForbiddenError('Support access cannot be decided in support mode');
      }
      if (input.body.approval_state === 'approved') {
        // Approving gives staff the request's role: the approver may give only a role within their own.
        const { role } = await getSupportAccess(deps, input.client, input.params.request_reference);
        await assertAssignedWithinOwn(deps.table, input.client, [{ path: 'params.request_reference', role }], input.access, { unknown: 'refuse' });
      }
      return decideSupportAccess(deps, input.client, input.params.request_reference, input.body, actor(input));
    }),
    [internalList.id]: implementForTenant(internalList, async (input, deps) =>
      listSupportAccess(deps, { client: input.client, state: input.query.approval_state, ...input.query }),
    ),
    [internalCreate.id]: implementForTenant(internalCreate, async (input, deps) =>
      reply(await requestSupportAccess(deps, input.client, input.body, actor(input)), { status: 201 }),
    ),
    [internalGet.id]: implementForTenant(internalGet, async (input, deps) =>
      getSupportAccess(deps, input.client, input.params.request_reference),
    ),
    [internalCancel.id]: implementForTenant(internalCancel, async (input, deps) =>
      withdrawSupportAccess(deps, input.client, input.params.request_reference, actor(input)),
    ),
    [byStatus.id]: implement(byStatus, async (input, deps) =>
      listSupportAccess(deps, { state: input.params.approval_status, ...input.query }),
    ),
  },
});
