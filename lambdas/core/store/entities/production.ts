import * as z from 'zod';
import { Production } from '#shared/contract/entities/productions.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { list, onIndex, part, tenantPrefix, timeSort, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';

/**
 * Entity tags of the production items. Kept here rather than in key-parts.ts ENTITY (as the fixity items are) while
 * the cases and productions parts edit the shared registry files at the same time; TableItem's tag is a plain string.
 */
export const PRODUCTION_ENTITY = { production: 'Production', controlCounter: 'ProductionControlCounter' } as const;

/** Named index: a case's productions by creation time. */
export const PRODUCTION_INDEXES = { byCase: 'gsi1' } as const;

/** The tenant's production log: one partition, references are ULIDs so the sort key orders them by creation. */
const productionsPartition = (client: string) => `${tenantPrefix(client)}PRODUCTIONS`;
const byCasePartition = (client: string, caseReference: string) => `${tenantPrefix(client)}CASE#${part(caseReference)}#PRODUCTIONS`;
const PRODUCTION = 'PRODUCTION#';

export const productionKeys = {
  key: (client: string, productionReference: string): ItemKey => ({ pk: productionsPartition(client), sk: `${PRODUCTION}${part(productionReference)}` }),
  /** The tenant's productions (the log), newest first with `descending`. */
  list: (client: string): ListKey => ({ partition: productionsPartition(client), sort: { beginsWith: PRODUCTION } }),
  /** One case's productions by creation time. */
  listByCase: (client: string, caseReference: string): ListKey => list(PRODUCTION_INDEXES.byCase, byCasePartition(client, caseReference)),
  /**
   * A case's control-number counter: the last number given in any of its productions. Incremented atomically by the
   * block a production takes, so two productions of one case never share a number and numbering continues across them.
   */
  controlCounter: (client: string, caseReference: string): ItemKey => ({ pk: `${tenantPrefix(client)}PRODUCTION_COUNTERS`, sk: `CASE#${part(caseReference)}` }),
};

/**
 * A production as stored: the contract's fields, plus what the job needs of the caller who asked for it (the payload
 * types and groups they may see, captured at the request: the job runs without them) and the numbers of its control
 * block (reserved once, so a resumed run gives the same numbers).
 */
export const productionItemSchema = /* @__PURE__ */ onFirstUse(() =>
  Production.extend({
    scope_payload_types: z.array(z.string()),
    /** The groups the caller may see; absent when every group is in scope. */
    scope_groups: z.array(z.string()).optional(),
    control_first_number: z.int().min(1).optional(),
    control_last_number: z.int().min(0).optional(),
    /** Object key of the package in the processed bucket, when delivered as a download. */
    download_key: z.string().optional(),
    download_name: z.string().optional(),
  }),
);
export type ProductionItem = z.infer<ReturnType<typeof productionItemSchema>>;

export const readProduction = (item: TableItem): ProductionItem => readItem('Production', productionItemSchema(), item);

export function productionToItem(production: ProductionItem): TableItem {
  return {
    ...productionKeys.key(production.client, production.production_reference),
    entity: PRODUCTION_ENTITY.production,
    ...(production.case_reference === undefined
      ? {}
      : onIndex[PRODUCTION_INDEXES.byCase](byCasePartition(production.client, production.case_reference), timeSort(production.created_at, production.production_reference))),
    ...production,
  };
}

/** The production as the API shows it: the contract's fields only. */
export function toProduction(stored: ProductionItem): Production {
  return Production.parse(stored);
}
