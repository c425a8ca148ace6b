import * as z from 'zod';
import { PAYLOAD_AUDIT_ACTIONS } from '#shared/constants/payloads.ts';
import { Actor } from '#shared/contract/entities/actor.ts';
import type { PayloadAudit } from '#shared/contract/entities/payloads.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { payloadPartition } from './payload.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named index: the receipts one person confirmed, by time. */
export const PAYLOAD_AUDIT_INDEXES = { byPerson: 'gsi1' } as const;

const AUDIT_PREFIX = 'AUDIT#';
const receiptsPartition = (client: string, person: string) => `${tenantPrefix(client)}PERSON#${part(person)}#RECEIPTS`;

export const payloadAuditKeys = {
  /**
   * One play, download, transfer or receipt of the payload (the payload's audit), in the payload's partition under
   * `AUDIT#<time>#<id>`, so one Query with `auditPrefix` reads the audit in time order.
   */
  audit: (client: string, payloadReference: string, { time, id, receiptBy }: { time: Date | string; id: string; receiptBy?: string }): ItemKeys => ({
    pk: payloadPartition(client, payloadReference),
    sk: `${AUDIT_PREFIX}${timeSort(time, id)}`,
    entity: ENTITY.payloadAudit,
    // A receipt is also listed under the person who confirmed it: what a legal hold on that portal user covers.
    ...(receiptBy === undefined ? {} : onIndex[PAYLOAD_AUDIT_INDEXES.byPerson](receiptsPartition(client, receiptBy), timeSort(time, id))),
  }),
  auditPrefix: AUDIT_PREFIX,
  /** The receipts one person confirmed (as the audit names them: e-mail, else reference), by time. */
  receiptsBy: (client: string, person: string): ListKey => list(PAYLOAD_AUDIT_INDEXES.byPerson, receiptsPartition(client, person)),
};

/**
 * What a payload audit record says happened: a link given (play, view, download), a transfer (the contract's
 * PAYLOAD_AUDIT_ACTIONS), or a receipt confirmed (kept apart, as the audit's `receipts`).
 */
export const payloadAuditActionSchema = /* @__PURE__ */ onFirstUse(() => z.enum([...PAYLOAD_AUDIT_ACTIONS, 'receipt']));
export type PayloadAuditAction = z.infer<ReturnType<typeof payloadAuditActionSchema>>;

/** One play, view, download, transfer or receipt of a payload, in the payload's partition in time order. */
export const payloadAuditItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  payload_reference: z.string(),
  action: payloadAuditActionSchema(),
  /**
   * Who acted, by their stable reference (lambdas/core/auth/actor.ts `actorOf`); records written before that rule
   * hold the e-mail the token carried. `actor` names them as they were at the time (absent on older records).
   */
  portal_user: z.string().optional(),
  actor: Actor.optional(),
  time: z.string(),
}));
export type PayloadAuditItem = z.infer<ReturnType<typeof payloadAuditItemSchema>>;

export function readPayloadAudit(item: TableItem): PayloadAuditItem {
  return readItem('PayloadAudit', payloadAuditItemSchema(), item);
}

/** Only what a record says happened (retention counts a payload's receipts and transfers): no other attribute is read. */
const payloadAuditActionItemSchema = /* @__PURE__ */ onFirstUse(() => payloadAuditItemSchema().pick({ action: true }));

export function readPayloadAuditAction(item: TableItem): PayloadAuditAction {
  return readItem('PayloadAudit', payloadAuditActionItemSchema(), item).action;
}

/** A new audit record of `record.payload_reference` at `record.time`, unique by `id` (a ULID). */
export function payloadAuditToItem(client: string, record: PayloadAuditItem, id: string): TableItem {
  const receiptBy = record.action === 'receipt' ? record.portal_user : undefined;
  return { ...payloadAuditKeys.audit(client, record.payload_reference, { time: record.time, id, ...(receiptBy === undefined ? {} : { receiptBy }) }), ...record };
}

/** A payload's audit as the API shows it: receipts apart from plays, downloads and transfers, each oldest first. */
export function toPayloadAudit(payloadReference: string, stored: readonly PayloadAuditItem[]): PayloadAudit {
  const records: PayloadAudit['records'] = [];
  const receipts: PayloadAudit['receipts'] = [];
  for (const { action, portal_user: portalUser = 'unknown', time, actor } of stored) {
    const named = actor === undefined ? {} : { actor };
    if (action === 'receipt') receipts.push({ user: portalUser, time, ...named });
    else records.push({ portal_user: portalUser, action, time, ...named });
  }
  return { payload_reference: payloadReference, records, receipts };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const payloadAuditModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.payloadAudit,
  title: 'Payload audit record (play, view, download, transfer, receipt)',
  module: 'payload-audit.ts',
  indexes: PAYLOAD_AUDIT_INDEXES,
  items: [{ when: 'byPerson for a receipt', example: () => payloadAuditKeys.audit(EXAMPLE_CLIENT, '<ref>', { time: '<time>', id: '<ulid>', receiptBy: '<portal_user>' }) }],
  accessPatterns: [
    {
      name: 'Read a payload\'s audit (plays, downloads, transfers, receipts)',
      serves: '`GET payloads/{payload_reference}/audit`',
      builders: ['keys.payload.key', 'keys.payload.auditPrefix'],
      example: () => ({ partition: payloadPartition(EXAMPLE_CLIENT, '<ref>'), sort: { beginsWith: payloadAuditKeys.auditPrefix } }),
    },
    {
      name: 'The receipts one person confirmed',
      serves: 'what a legal hold on a portal user covers (`coverage`)',
      builders: ['keys.payload.receiptsBy'],
      example: () => payloadAuditKeys.receiptsBy(EXAMPLE_CLIENT, '<portal_user>'),
    },
  ],
}));
