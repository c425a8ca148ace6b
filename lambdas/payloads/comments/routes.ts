import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { actorRecordOf } from '#core/auth/actor.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import { implementForTenant, type TenantRouteInput } from '#core/http/route.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { payloadAccess, type PayloadAccess } from '#core/auth/access/payload-access.ts';
import { closeComment, createComment, listComments, listPayloadComments, updateComment } from './comments-service.ts';

const list = endpointOf(payloadEndpoints, 'client.comments.list');
const listForPayload = endpointOf(payloadEndpoints, 'client.payloads.comments.list');
const create = endpointOf(payloadEndpoints, 'client.payloads.comments.create');
const update = endpointOf(payloadEndpoints, 'client.payloads.comments.update');
const close = endpointOf(payloadEndpoints, 'client.payloads.comments.delete');

/** The tenant, the group and type restriction for the endpoint's action, and who acts. */
function context(input: TenantRouteInput, deps: Dependencies, action: string): { client: string; access: PayloadAccess; actor: Actor } {
  return { client: input.client, access: payloadAccess(deps, input.client, input.access, action), actor: actorRecordOf(input.principal) };
}

/** Comment routes of the `payloads` group (spread into its handler's routes). */
export const commentRoutes = {
  [list.id]: implementForTenant(list, async (input, deps) => {
    const { client, access } = context(input, deps, list.action);
    return listComments(deps, client, access, input.query);
  }),
  [listForPayload.id]: implementForTenant(listForPayload, async (input, deps) => {
    const { client, access } = context(input, deps, listForPayload.action);
    return listPayloadComments(deps, client, access, input.params.payload_reference, input.query);
  }),
  [create.id]: implementForTenant(create, async (input, deps) => {
    const { client, access, actor } = context(input, deps, create.action);
    return createComment(deps, client, access, actor, input.params.payload_reference, input.body);
  }),
  [update.id]: implementForTenant(update, async (input, deps) => {
    const { client, access, actor } = context(input, deps, update.action);
    return updateComment(deps, client, access, actor, input.params.payload_reference, input.params.comment_id, input.body);
  }),
  [close.id]: implementForTenant(close, async (input, deps) => {
    const { client, access, actor } = context(input, deps, close.action);
    return closeComment(deps, client, access, actor, input.params.payload_reference, input.params.comment_id);
  }),
};
