import * as z from 'zod';
import { Case } from '#shared/contract/entities/cases.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, part, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** A case's own partition: the case item, and whatever belongs to the case alone (its productions) beside it. */
const casePartition = (client: string, caseRef: string) => `${tenantPrefix(client)}CASE#${part(caseRef)}`;

/**
 * Who may see a case: one "seat" partition per portal user of the tenant (and one for staff in support mode). A seat
 * item per case and member is what the list reads, newest case first (the sort key is the case's ULID), so listing
 * "my cases" never reads another person's cases, let alone scans for them.
 */
const seatsPartition = (client: string, seat: string) => `${tenantPrefix(client)}CASE_SEATS#${part(seat)}`;

/** The seat that lets staff in support mode see a case whose team allows it (`support_may_view`). */
export const SUPPORT_SEAT = '#support';

export const caseKeys = {
  item: (client: string, caseRef: string): ItemKeys => ({ ...caseKeys.key(client, caseRef), entity: ENTITY.case }),
  key: (client: string, caseRef: string): ItemKey => ({ pk: casePartition(client, caseRef), sk: 'CASE' }),
  /** The case's partition, for the records kept beside the case (productions) under their own sort-key prefix. */
  partition: casePartition,
  seatItem: (client: string, seat: string, caseRef: string): ItemKeys => ({ ...caseKeys.seatKey(client, seat, caseRef), entity: ENTITY.caseSeat }),
  seatKey: (client: string, seat: string, caseRef: string): ItemKey => ({ pk: seatsPartition(client, seat), sk: `CASE#${part(caseRef)}` }),
  /** The cases one portal user (or support mode, SUPPORT_SEAT) may see: Query descending for newest first. */
  seats: (client: string, seat: string): ListKey => ({ partition: seatsPartition(client, seat), sort: { beginsWith: 'CASE#' } }),
};

/** A case as stored: the contract's fields with the tenant. */
export const caseItemSchema = /* @__PURE__ */ onFirstUse(() => Case.extend({ client: z.string() }));
export type CaseItem = z.infer<ReturnType<typeof caseItemSchema>>;

export function readCase(item: TableItem): CaseItem {
  return readItem('Case', caseItemSchema(), item);
}

export function caseToItem(stored: CaseItem): TableItem {
  return { ...caseKeys.item(stored.client, stored.case_ref), ...stored };
}

/** The case as the API answers it (the tenant is the path's). */
export function toCase(stored: CaseItem): Case {
  const { client: _tenant, ...answer } = stored;
  return answer;
}

/** A seat item: the case it gives sight of (the list reads the case itself, so a seat carries nothing else). */
export function caseSeatToItem(client: string, seat: string, caseRef: string): TableItem {
  return { ...caseKeys.seatItem(client, seat, caseRef), client, case_ref: caseRef };
}

/** The case a seat item points to. */
export function caseRefOfSeat(item: TableItem): string {
  return z.object({ case_ref: z.string() }).parse(item).case_ref;
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const caseModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.case,
  title: 'Case (matter): custodians, period, payload types, team, the holds it placed',
  module: 'case.ts',
  indexes: {},
  items: [{ example: () => caseKeys.item(EXAMPLE_CLIENT, '<case_ref>') }],
  accessPatterns: [
    {
      name: 'Get / open / change / close a case',
      serves: '`GET, PUT cases/{case_ref}`, `POST cases`, `POST cases/{case_ref}/close` (consistent GetItem; writes conditional on the read); productions read the case',
      builders: ['keys.case.key'],
      example: () => caseKeys.key(EXAMPLE_CLIENT, '<case_ref>'),
    },
  ],
}));

/** The seats: who may see which case (one item per team member, and one for support mode when allowed). */
export const caseSeatModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.caseSeat,
  title: 'Case seat: one per case and team member (or support mode), what lists a person\'s cases',
  module: 'case.ts',
  indexes: {},
  items: [{ example: () => caseKeys.seatItem(EXAMPLE_CLIENT, '<user_reference>', '<case_ref>') }],
  accessPatterns: [
    {
      name: "List a portal user's cases, newest first",
      serves: '`GET cases` (page and total); the cases are then read by key (BatchGet) and their team checked again',
      builders: ['keys.case.seats'],
      example: () => caseKeys.seats(EXAMPLE_CLIENT, '<user_reference>'),
    },
  ],
}));
