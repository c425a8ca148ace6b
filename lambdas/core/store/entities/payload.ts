import * as z from 'zod';
import { PayloadState, PayloadType } from '#shared/constants/payloads.ts';
import { Payload } from '#shared/contract/entities/payloads.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * A payload (one recording) as stored: written by registration, moved through its states by processing, stamped by
 * restore and receipts. Registration always writes the reference, type, state and device; everything else arrives
 * later in the payload's life, or was never written on older items, so it is optional.
 */
export const PayloadItem = z.object({
  client: z.string().optional(),
  payload_reference: z.string(),
  payload_type: PayloadType,
  payload_state: PayloadState,
  device_reference: z.string(),
  device_user_reference: z.string().optional(),
  group: z.string().optional(),
  device_ip: z.string().optional(),
  /** When it was recorded (UTC, from the sealed meta at registration; the list keys sort by it). */
  payload_time: z.string().optional(),
  // The seal, as the device sent it: the tenant KEK's id, the wrapped DEK, the content IV and the sealed meta.
  key_id: z.string().optional(),
  encrypted_dek: z.string().optional(),
  content_iv: z.string().optional(),
  sealed_meta: z.string().optional(),
  /** SHA-256 (hex, lower case) of the plaintext as the device sealed it. */
  checksum: z.string().optional(),
  is_legacy: z.boolean().optional(),
  is_late: z.boolean().optional(),
  legacy_payload_reference: z.string().optional(),
  legacy_processed_time: z.string().optional(),
  uploaded_at: z.string().optional(),
  processed_at: z.string().optional(),
  transferred_at: z.string().optional(),
  s3_path: z.string().optional(),
  /** Plain from the decrypted meta once processed. */
  thread_id: z.string().optional(),
  payload_duration: z.number().optional(),
  payload_full_duration: z.number().optional(),
  /** Comma-delimited. */
  second_party_numbers: z.string().optional(),
  /** Comma-delimited: the second parties' and the recording device's numbers. */
  all_numbers: z.string().optional(),
  /** Older items held the meta itself: decrypted (an object) or sealed (a string). */
  meta: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
  waveform_peaks: z.boolean().optional(),
  failure_reason: z.string().optional(),
  scan_signature: z.string().optional(),
  // Effects of a final state still to run, claimed by a conditional REMOVE (processing.ts).
  metrics_pending: z.boolean().optional(),
  alert_pending: z.boolean().optional(),
  receipt_confirmed_at: z.string().optional(),
  receipt_confirmed_by: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  updated_by: z.string().optional(),
});
export type PayloadItem = z.infer<typeof PayloadItem>;

/** A stored payload item, typed; an InternalError naming the malformed attributes otherwise. */
export function readPayload(item: TableItem): PayloadItem {
  return readItem('Payload', PayloadItem, item);
}

/** A new payload with its keys (gsi1 per tenant, gsi2 per device, gsi3 per device user when it has one). */
export function payloadToItem(client: string, payload: PayloadItem & { payload_time: string }): TableItem {
  return {
    ...keys.payload.item(client, {
      payloadReference: payload.payload_reference,
      payloadTime: payload.payload_time,
      deviceReference: payload.device_reference,
      ...(payload.device_user_reference === undefined ? {} : { deviceUserReference: payload.device_user_reference }),
    }),
    ...payload,
  };
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
