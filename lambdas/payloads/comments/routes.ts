import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { implementForTenant } from '#core/http/route.ts';
import { closeComment, createComment, listComments, listPayloadComments, updateComment } from './comments-service.ts';

const list = endpointOf(payloadEndpoints, 'client.comments.list');
const listForPayload = endpointOf(payloadEndpoints, 'client.payloads.comments.list');
const create = endpointOf(payloadEndpoints, 'client.payloads.comments.create');
const update = endpointOf(payloadEndpoints, 'client.payloads.comments.update');
const close = endpointOf(payloadEndpoints, 'client.payloads.comments.delete');

/** Comment routes of the `payloads` group (spread into its handler's routes). */
export const commentRoutes = {
  [list.id]: implementForTenant(list, ({ caller, query }) => listComments(caller, query)),
  [listForPayload.id]: implementForTenant(listForPayload, ({ caller, params, query }) => listPayloadComments(caller, params.payload_reference, query)),
  [create.id]: implementForTenant(create, ({ caller, params, body }) => createComment(caller, params.payload_reference, body)),
  [update.id]: implementForTenant(update, ({ caller, params, body }) => updateComment(caller, params.payload_reference, params.comment_id, body)),
  [close.id]: implementForTenant(close, ({ caller, params }) => closeComment(caller, params.payload_reference, params.comment_id)),
};
