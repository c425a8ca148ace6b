import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { implementForTenant } from '#core/http/route.ts';
import { startApply } from './apply.ts';
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from './policies.ts';
import { previewPolicy } from './preview.ts';

const list = endpointOf(supervisionEndpoints, 'admin.supervision.policies.list');
const get = endpointOf(supervisionEndpoints, 'admin.supervision.policies.get');
const create = endpointOf(supervisionEndpoints, 'admin.supervision.policies.create');
const update = endpointOf(supervisionEndpoints, 'admin.supervision.policies.update');
const remove = endpointOf(supervisionEndpoints, 'admin.supervision.policies.delete');
const preview = endpointOf(supervisionEndpoints, 'admin.supervision.policies.preview');
const apply = endpointOf(supervisionEndpoints, 'admin.supervision.policies.apply');

/** The policy routes of the `supervision` group (lambdas/supervision/handler.ts spreads them beside the item routes). */
export const policyRoutes = {
  [list.id]: implementForTenant(list, ({ caller, query }) => listPolicies(caller, query)),
  [get.id]: implementForTenant(get, ({ caller, params }) => getPolicy(caller, params.policy_reference)),
  [create.id]: implementForTenant(create, ({ caller, params, body }) => createPolicy(caller, params.policy_reference, body)),
  [update.id]: implementForTenant(update, ({ caller, params, body }) => updatePolicy(caller, params.policy_reference, body)),
  [remove.id]: implementForTenant(remove, async ({ caller, params }) => {
    await deletePolicy(caller, params.policy_reference);
    return { ok: true as const };
  }),
  [preview.id]: implementForTenant(preview, ({ caller, params, body }) => previewPolicy(caller, params.policy_reference, body)),
  [apply.id]: implementForTenant(apply, ({ caller, params, body }) => startApply(caller, params.policy_reference, body)),
};
