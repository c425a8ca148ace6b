import * as z from 'zod';
import { PAYLOAD_AUDIT_ACTIONS } from '#shared/constants/payloads.ts';
import { Actor } from '#shared/contract/entities/actor.ts';
import type { PayloadAudit } from '#shared/contract/entities/payloads.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * What a payload audit record says happened: a link given (play, view, download), a transfer (the contract's
 * PAYLOAD_AUDIT_ACTIONS), or a receipt confirmed (kept apart, as the audit's `receipts`).
 */
export const PayloadAuditAction = z.enum([...PAYLOAD_AUDIT_ACTIONS, 'receipt']);
export type PayloadAuditAction = z.infer<typeof PayloadAuditAction>;

/** One play, view, download, transfer or receipt of a payload, in the payload's partition in time order. */
export const PayloadAuditItem = z.object({
  payload_reference: z.string(),
  action: PayloadAuditAction,
  /**
   * Who acted, by their stable reference (lambdas/core/auth/actor.ts `actorOf`); records written before that rule
   * hold the e-mail the token carried. `actor` names them as they were at the time (absent on older records).
   */
  portal_user: z.string().optional(),
  actor: Actor.optional(),
  time: z.string(),
});
export type PayloadAuditItem = z.infer<typeof PayloadAuditItem>;

export function readPayloadAudit(item: TableItem): PayloadAuditItem {
  return readItem('PayloadAudit', PayloadAuditItem, item);
}

/** Only what a record says happened (retention counts a payload's receipts and transfers): no other attribute is read. */
const PayloadAuditActionItem = PayloadAuditItem.pick({ action: true });

export function readPayloadAuditAction(item: TableItem): PayloadAuditAction {
  return readItem('PayloadAudit', PayloadAuditActionItem, item).action;
}

/** A new audit record of `record.payload_reference` at `record.time`, unique by `id` (a ULID). */
export function payloadAuditToItem(client: string, record: PayloadAuditItem, id: string): TableItem {
  const receiptBy = record.action === 'receipt' ? record.portal_user : undefined;
  return { ...keys.payload.audit(client, record.payload_reference, record.time, id, receiptBy), ...record };
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
