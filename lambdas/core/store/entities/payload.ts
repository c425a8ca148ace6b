import * as z from 'zod';
import { Payload } from '#shared/contract/entities/payloads.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A payload (one recording) as stored: written by registration, moved through its states by processing, stamped by
 * restore and receipts. Registration always writes the reference, type, state and device; everything else arrives
 * later in the payload's life, or was never written on older items, so it is optional.
 */
export const PayloadItem = Payload.extend({
  // The contract's fields, as stored: flags absent on older items stay absent (the contract answers them as false).
  is_legacy: z.boolean().optional(),
  is_late: z.boolean().optional(),
  payload_duration: z.number().optional(),
  /** Older items held the meta itself: decrypted (an object) or sealed (a string). */
  meta: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
  // The seal's parts the contract does not show: the content IV and the sealed meta.
  content_iv: z.string().optional(),
  sealed_meta: z.string().optional(),
  payload_full_duration: z.number().optional(),
  waveform_peaks: z.boolean().optional(),
  failure_reason: z.string().optional(),
  scan_signature: z.string().optional(),
  // Effects of a final state still to run, claimed by a conditional REMOVE (processing.ts).
  metrics_pending: z.boolean().optional(),
  alert_pending: z.boolean().optional(),
  created_at: z.string().optional(),
});
export type PayloadItem = z.infer<typeof PayloadItem>;

/** A stored payload item, typed; an InternalError naming the malformed attributes otherwise. */
export function readPayload(item: TableItem): PayloadItem {
  return readItem('Payload', PayloadItem, item);
}

/**
 * A new payload with its keys (gsi1 per tenant, gsi2 per device, gsi3 per device user when it has one; byProcessedAt
 * while it is Processed).
 */
export function payloadToItem(client: string, payload: PayloadItem & { payload_time: string }): TableItem {
  return {
    ...keys.payload.item(client, {
      payloadReference: payload.payload_reference,
      payloadTime: payload.payload_time,
      deviceReference: payload.device_reference,
      ...(payload.device_user_reference === undefined ? {} : { deviceUserReference: payload.device_user_reference }),
    }),
    ...processedIndexKeys(client, payload),
    ...payload,
  };
}

/**
 * The byProcessedAt keys a payload in this state carries: its processing time's place in the tenant's Processed
 * recordings while it is Processed, none otherwise (what a transfer may carry; keys.payload.processedKeys).
 */
export function processedIndexKeys(client: string, payload: Pick<PayloadItem, 'payload_reference' | 'payload_state' | 'processed_at'>) {
  return payload.payload_state === 'Processed' && payload.processed_at !== undefined
    ? keys.payload.processedKeys(client, payload.payload_reference, payload.processed_at)
    : {};
}

/**
 * A payload as the API shows it: the contract's fields only. The sealed meta stays off lists (opening it costs a key
 * unwrap per payload); `GET payloads/{ref}` adds it decrypted.
 */
export function toPayload(stored: PayloadItem): Payload {
  const { meta, ...rest } = stored;
  void meta;
  return Payload.parse(rest);
}
