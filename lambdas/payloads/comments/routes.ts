import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import type { Principal } from '#core/auth/principal.ts';
import { ForbiddenError } from '#core/errors.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { payloadAccess, type PayloadAccess } from '#core/auth/access/payload-access.ts';
import { closeComment, createComment, listComments, listPayloadComments, updateComment } from './comments-service.ts';

/** Contract ids are plain strings to the type system, so the position types each route; `named` checks it at load. */
const [list, listForPayload, create, update, close] = [
  payloadEndpoints[10],
  payloadEndpoints[11],
  payloadEndpoints[12],
  payloadEndpoints[13],
  payloadEndpoints[14],
] as const;

function named(endpoint: { id: string }, id: string): void {
  if (endpoint.id !== id) throw new Error(`comment routes expected ${id}, found ${endpoint.id}`);
}
named(list, 'client.comments.list');
named(listForPayload, 'client.payloads.comments.list');
named(create, 'client.payloads.comments.create');
named(update, 'client.payloads.comments.update');
named(close, 'client.payloads.comments.delete');

/** Who acts, as comments record it (`raised_by`, `updated_by`, `closed_by`): the token's email, else its subject. */
export function actorOf(principal: Principal | undefined): string {
  if (principal === undefined || principal.kind === 'device') return 'unknown';
  if (principal.kind === 'client-app') return `app:${principal.appReference}`;
  return principal.email ?? principal.subject;
}

/** The tenant, the group and type restriction for the endpoint's action, and who acts. */
function context(input: RouteInput, deps: Dependencies, action: string): { client: string; access: PayloadAccess; actor: string } {
  // The pipeline resolves the tenant for every client-surface call; its absence is a wiring fault, refused safely.
  if (input.client === undefined) throw new ForbiddenError();
  return { client: input.client, access: payloadAccess(deps, input.client, input.access, action), actor: actorOf(input.principal) };
}

/** Comment routes of the `payloads` group (spread into its handler's routes). */
export const commentRoutes = {
  [list.id]: implement(list, async (input, deps) => {
    const { client, access } = context(input, deps, list.action);
    return listComments(deps, client, access, input.query);
  }),
  [listForPayload.id]: implement(listForPayload, async (input, deps) => {
    const { client, access } = context(input, deps, listForPayload.action);
    return listPayloadComments(deps, client, access, input.params.payload_reference, input.query);
  }),
  [create.id]: implement(create, async (input, deps) => {
    const { client, access, actor } = context(input, deps, create.action);
    return createComment(deps, client, access, actor, input.params.payload_reference, input.body);
  }),
  [update.id]: implement(update, async (input, deps) => {
    const { client, access, actor } = context(input, deps, update.action);
    return updateComment(deps, client, access, actor, input.params.payload_reference, input.params.comment_id, input.body);
  }),
  [close.id]: implement(close, async (input, deps) => {
    const { client, access, actor } = context(input, deps, close.action);
    return closeComment(deps, client, access, actor, input.params.payload_reference, input.params.comment_id);
  }),
};
