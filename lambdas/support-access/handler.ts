import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { ForbiddenError } from '#core/errors.ts';
import { assertAssignedWithinOwn } from '../access/public.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implement, implementForTenant } from '#core/http/route.ts';
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

/**
 * Lambda entry of the `support-access` group: staff ask a tenant for a role (internal console), the tenant decides
 * (admin surface), the expiry job (lambdas/jobs) ends what is due. States and transitions: state-machine.ts.
 */
export const handler = createApiHandler({
  group: 'support-access',
  recorders: apiRecorders,
  endpoints: supportAccessEndpoints,
  routes: {
    [list.id]: implementForTenant(list, ({ caller, query }) => listSupportAccess(caller, { state: query.approval_state, ...query })),
    [get.id]: implementForTenant(get, ({ caller, params }) => getSupportAccess(caller, params.request_reference)),
    [decide.id]: implementForTenant(decide, async ({ caller, params, body }) => {
      // Staff in support mode act inside the tenant, but must never approve their own access.
      const { access, principal } = caller;
      const supportMode = access?.supportReference ?? (principal?.kind === 'user' ? principal.supportReference : undefined);
      if (supportMode !== undefined) {
        throw new ForbiddenError('Support access cannot be decided in support mode');
      }
      if (body.approval_state === 'approved') {
        // Approving gives staff the request's role: the approver may give only a role within their own.
        const { role } = await getSupportAccess(caller, params.request_reference);
        await assertAssignedWithinOwn(caller, [{ path: 'params.request_reference', role }], { unknown: 'refuse' });
      }
      return decideSupportAccess(caller, params.request_reference, body);
    }),
    [internalList.id]: implementForTenant(internalList, ({ caller, query }) => listSupportAccess(caller, { state: query.approval_state, ...query })),
    [internalCreate.id]: implementForTenant(internalCreate, async ({ caller, body }) => reply(await requestSupportAccess(caller, body), { status: 201 })),
    [internalGet.id]: implementForTenant(internalGet, ({ caller, params }) => getSupportAccess(caller, params.request_reference)),
    [internalCancel.id]: implementForTenant(internalCancel, ({ caller, params }) => withdrawSupportAccess(caller, params.request_reference)),
    [byStatus.id]: implement(byStatus, ({ caller, params, query }) => listSupportAccess(caller, { state: params.approval_status, ...query })),
  },
});
