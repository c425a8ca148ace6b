import * as z from 'zod';
import { ErasureKindOutcome, ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Erasure requests (GDPR Art 17, docs/erasure.md): one partition per tenant, `ERASURE#<reference>`; references are
 * ULIDs, so the sort key orders them by recording time. A tenant receives a handful a year: the list reads the
 * partition and filters state, device user and group scope on the items read.
 */
export const ERASURE_REQUEST_ENTITY = ENTITY.erasureRequest;

const erasurePartition = (client: string) => `${tenantPrefix(client)}ERASURE_REQUESTS`;
const ERASURE = 'ERASURE#';

export const erasureRequestKeys = {
  key: (client: string, reference: string): ItemKey => ({ pk: erasurePartition(client), sk: `${ERASURE}${part(reference)}` }),
  /** The tenant's erasure requests; newest first with `descending`. */
  list: (client: string): ListKey => ({ partition: erasurePartition(client), sort: { beginsWith: ERASURE } }),
};

/** Where a job walking the person's records stands: the kind it is on and its position in that kind's list. */
export const ErasureCursor = z.object({
  kind_index: z.int().min(0),
  start_key: z.record(z.string(), z.string()).optional(),
});
export type ErasureCursor = z.infer<typeof ErasureCursor>;

/**
 * A request as stored: the contract's fields, plus the jobs' bookkeeping. `decision_time` is the time the decision
 * judged retention periods at (the run judges at the same time, so what the decision kept stays kept);
 * `decision_outcomes` keeps the decision as reviewed once the run starts rewriting `outcomes` with what it did.
 */
export const erasureRequestItemSchema = /* @__PURE__ */ onFirstUse(() =>
  ErasureRequest.extend({
    created_by_actor: z.record(z.string(), z.unknown()).optional(),
    decision_time: z.string().optional(),
    decision_outcomes: z.array(ErasureKindOutcome).optional(),
    cursor: ErasureCursor.optional(),
    run_id: z.string().optional(),
    /** Pages the jobs have written: each write is conditional on the step it read. */
    walk_step: z.int().min(0).optional(),
  }),
);
export type ErasureRequestItem = z.infer<ReturnType<typeof erasureRequestItemSchema>>;

export const readErasureRequest = (item: TableItem): ErasureRequestItem => readItem('ErasureRequest', erasureRequestItemSchema(), item);

export function erasureRequestToItem(request: ErasureRequestItem): TableItem {
  return { ...erasureRequestKeys.key(request.client, request.erasure_request_reference), entity: ERASURE_REQUEST_ENTITY, ...request };
}

/** The request as the API shows it: the contract's fields only. */
export function toErasureRequest(stored: ErasureRequestItem): ErasureRequest {
  return ErasureRequest.parse(stored);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const erasureRequestModel = /* @__PURE__ */ entityModel(() => ({
  entity: ERASURE_REQUEST_ENTITY,
  title: 'Erasure request (GDPR Art 17): the request, its decision and report per kind, the jobs\' position',
  module: 'erasure-request.ts',
  indexes: {},
  items: [{ example: () => ({ ...erasureRequestKeys.key(EXAMPLE_CLIENT, '<erasure_request_reference>'), entity: ERASURE_REQUEST_ENTITY }) }],
  accessPatterns: [
    {
      name: 'Get / review an erasure request; the jobs read and write it page by page',
      serves: '`GET account/erasure_requests/{erasure_request_reference}`, `POST …/review` (conditional on `Decided`), the `erasure-decision` and `erasure-run` jobs (conditional on `walk_step`)',
      builders: ['keys.erasureRequest.key'],
      example: () => erasureRequestKeys.key(EXAMPLE_CLIENT, '<erasure_request_reference>'),
    },
    {
      name: "The tenant's erasure requests, newest first",
      serves: '`GET account/erasure_requests` (state, device user and group scope filter the items read: a handful a year)',
      builders: ['keys.erasureRequest.list'],
      example: () => erasureRequestKeys.list(EXAMPLE_CLIENT),
    },
  ],
}));
