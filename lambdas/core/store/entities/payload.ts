import * as z from 'zod';
import { MESSAGE_PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { Payload } from '#shared/contract/entities/payloads.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { BY_PROCESSED_AT, BY_THREAD } from '../table-definition.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * Named indexes of a payload: the tenant's by payload time, a device's, a device user's, the Processed ones by
 * processing time, a device's messages of one thread.
 */
export const PAYLOAD_INDEXES = { byTenantTime: 'gsi1', byDevice: 'gsi2', byDeviceUser: 'gsi3', byProcessedAt: 'byProcessedAt', byThread: 'byThread' } as const;

/** A payload's own partition: the payload, its comments (`COMMENT#…`), audit records (`AUDIT#…`) and sweep marker. */
export const payloadPartition = (client: string, payloadReference: string) => `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`;
const byDevicePartition = (client: string, deviceReference: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#PAYLOADS`;
const byDeviceUserPartition = (client: string, deviceUserReference: string) => `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#PAYLOADS`;
const byThreadPartition = (client: string, deviceReference: string, threadId: string) => `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#THREAD#${part(threadId)}`;
const MESSAGE_TYPES = new Set<string>(MESSAGE_PAYLOAD_TYPES);

export const payloadKeys = {
  /** Comments and audit records live in the payload's partition (sort keys `COMMENT#…`, `AUDIT#…`). */
  item: (
    client: string,
    payload: { payloadReference: string; payloadTime: Date | string; deviceReference: string; deviceUserReference?: string },
  ): ItemKeys => ({
    pk: payloadPartition(client, payload.payloadReference),
    sk: 'PAYLOAD',
    entity: ENTITY.payload,
    ...onIndex[PAYLOAD_INDEXES.byTenantTime](`${tenantPrefix(client)}PAYLOADS`, timeSort(payload.payloadTime, payload.payloadReference)),
    ...onIndex[PAYLOAD_INDEXES.byDevice](byDevicePartition(client, payload.deviceReference), timeSort(payload.payloadTime, payload.payloadReference)),
    ...(payload.deviceUserReference === undefined
      ? {}
      : onIndex[PAYLOAD_INDEXES.byDeviceUser](byDeviceUserPartition(client, payload.deviceUserReference), timeSort(payload.payloadTime, payload.payloadReference))),
  }),
  /** The primary key alone (get, update), without the payload time the list keys need. */
  key: (client: string, payloadReference: string): ItemKey => ({ pk: payloadPartition(client, payloadReference), sk: 'PAYLOAD' }),
  list: (client: string): ListKey => list(PAYLOAD_INDEXES.byTenantTime, `${tenantPrefix(client)}PAYLOADS`),
  listByDevice: (client: string, deviceReference: string): ListKey => list(PAYLOAD_INDEXES.byDevice, byDevicePartition(client, deviceReference)),
  listByDeviceUser: (client: string, deviceUserReference: string): ListKey => list(PAYLOAD_INDEXES.byDeviceUser, byDeviceUserPartition(client, deviceUserReference)),
  /**
   * The byProcessedAt keys of a Processed payload: the tenant's partition of Processed recordings, by processing time.
   * Written in the same write that makes a payload Processed (processing, the legacy import, a restore) and removed in
   * the write that ends it (deletion; a destroyed remnant keeps neither), so the index holds exactly the payloads a
   * transfer may carry and its window is one key range (lambdas/transfers/job/selection.ts).
   */
  processedKeys: (client: string, payloadReference: string, processedAt: string): Pick<ItemKeys, 'by_processed_at_pk' | 'by_processed_at_sk'> =>
    onIndex[PAYLOAD_INDEXES.byProcessedAt](`${tenantPrefix(client)}PAYLOADS#PROCESSED`, timeSort(processedAt, payloadReference)),
  /** The attributes a payload that stops being Processed REMOVEs. */
  processedKeyAttributes: [BY_PROCESSED_AT.partitionKey, BY_PROCESSED_AT.sortKey] as string[],
  /** The tenant's Processed payloads by processing time, oldest first. */
  listProcessed: (client: string): ListKey => list(PAYLOAD_INDEXES.byProcessedAt, `${tenantPrefix(client)}PAYLOADS#PROCESSED`),
  /**
   * The byThread keys of a message in a thread: the device's partition of that thread, by payload time. Written with
   * the `thread_id` they follow (processing, the legacy import, any write through payloadToItem) and never removed
   * while the message keeps its thread; a destroyed remnant keeps neither (record-changes/payload.ts keeps by name).
   */
  threadKeys: (client: string, payload: { deviceReference: string; threadId: string; payloadTime: Date | string; payloadReference: string }): Pick<ItemKeys, 'by_thread_pk' | 'by_thread_sk'> =>
    onIndex[PAYLOAD_INDEXES.byThread](byThreadPartition(client, payload.deviceReference, payload.threadId), timeSort(payload.payloadTime, payload.payloadReference)),
  threadKeyAttributes: [BY_THREAD.partitionKey, BY_THREAD.sortKey] as string[],
  /** One thread of a device's messages by payload time. */
  listThread: (client: string, deviceReference: string, threadId: string): ListKey => list(PAYLOAD_INDEXES.byThread, byThreadPartition(client, deviceReference, threadId)),
};

/** Object key of a payload's bytes in the raw or processed bucket: tenant first, like every table key. */
export function payloadObjectKey(client: string, payloadReference: string): string {
  tenantPrefix(client);
  return `${client}/payloads/${encodeURIComponent(payloadReference)}`;
}

/**
 * Object key, in the malware-scan quarantine bucket, of the plaintext of one upload of a payload: its object key plus
 * the upload's ETag, so a payload uploaded again is scanned again rather than judged by an older copy's verdict.
 */
export function quarantineObjectKey(objectKey: string, revision: string | undefined): string {
  const cleaned = (revision ?? '').replace(/[^A-Za-z0-9-]/g, '');
  return `${objectKey}/${cleaned || 'unknown'}`;
}

/** The payload object key a quarantine key stands for, or undefined for a key of another shape. */
export function objectKeyOfQuarantineKey(quarantineKey: string): string | undefined {
  const cut = quarantineKey.lastIndexOf('/');
  return cut <= 0 ? undefined : quarantineKey.slice(0, cut);
}

/**
 * A payload (one recording) as stored: written by registration, moved through its states by processing, stamped by
 * restore and receipts. Registration always writes the reference, type, state and device; everything else arrives
 * later in the payload's life, or was never written on older items, so it is optional.
 */
export const payloadItemSchema = /* @__PURE__ */ onFirstUse(() => Payload.extend({
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
}));
export type PayloadItem = z.infer<ReturnType<typeof payloadItemSchema>>;

/** A stored payload item, typed; an InternalError naming the malformed attributes otherwise. */
export function readPayload(item: TableItem): PayloadItem {
  return readItem('Payload', payloadItemSchema(), item);
}

/**
 * A new payload with its keys (gsi1 per tenant, gsi2 per device, gsi3 per device user when it has one; byProcessedAt
 * while it is Processed).
 */
export function payloadToItem(client: string, payload: PayloadItem & { payload_time: string }): TableItem {
  return {
    ...payloadKeys.item(client, {
      payloadReference: payload.payload_reference,
      payloadTime: payload.payload_time,
      deviceReference: payload.device_reference,
      ...(payload.device_user_reference === undefined ? {} : { deviceUserReference: payload.device_user_reference }),
    }),
    ...processedIndexKeys(client, payload),
    ...threadIndexKeys(client, payload),
    ...payload,
  };
}

/**
 * The byThread keys a payload carries: a message (SMS, MMS) with a `thread_id` is in its device's thread; nothing
 * else is. The thread list reads exactly these, so this is the one rule of what a thread holds.
 */
export function threadIndexKeys(
  client: string,
  payload: Pick<PayloadItem, 'payload_reference' | 'payload_type' | 'device_reference' | 'thread_id'> & { payload_time?: string | undefined },
) {
  return MESSAGE_TYPES.has(payload.payload_type) && payload.thread_id !== undefined && payload.payload_time !== undefined
    ? payloadKeys.threadKeys(client, { deviceReference: payload.device_reference, threadId: payload.thread_id, payloadTime: payload.payload_time, payloadReference: payload.payload_reference })
    : {};
}

/**
 * The byProcessedAt keys a payload in this state carries: its processing time's place in the tenant's Processed
 * recordings while it is Processed, none otherwise (what a transfer may carry; payloadKeys.processedKeys).
 */
export function processedIndexKeys(client: string, payload: Pick<PayloadItem, 'payload_reference' | 'payload_state' | 'processed_at'>) {
  return payload.payload_state === 'Processed' && payload.processed_at !== undefined
    ? payloadKeys.processedKeys(client, payload.payload_reference, payload.processed_at)
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

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const payloadModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.payload,
  title: 'Payload (one recording)',
  module: 'payload.ts',
  indexes: PAYLOAD_INDEXES,
  items: [
    {
      when: 'byDeviceUser when recorded by a device user; byProcessedAt while Processed; byThread for a message with a thread_id',
      example: () => ({
        ...payloadKeys.item(EXAMPLE_CLIENT, { payloadReference: '<ref>', payloadTime: '<payload_time>', deviceReference: '<device_reference>', deviceUserReference: '<device_user_reference>' }),
        ...payloadKeys.processedKeys(EXAMPLE_CLIENT, '<ref>', '<processed_at>'),
        ...payloadKeys.threadKeys(EXAMPLE_CLIENT, { deviceReference: '<device_reference>', threadId: '<thread_id>', payloadTime: '<payload_time>', payloadReference: '<ref>' }),
      }),
    },
  ],
  accessPatterns: [
    { name: 'Get a payload', serves: '`GET payloads/{payload_reference}`', builders: ['keys.payload.key'], example: () => payloadKeys.key(EXAMPLE_CLIENT, '<ref>') },
    {
      name: 'List payloads of a tenant by time',
      serves: '`GET payloads` (date range: `between`); the `processed-index-backfill` and `object-retention-sync` jobs (100 a page, position in the job\'s input); a transfer\'s selection in a tenant not yet backfilled',
      builders: ['keys.payload.list'],
      example: () => payloadKeys.list(EXAMPLE_CLIENT),
    },
    {
      name: 'List payloads of a device',
      serves: '`GET devices/{device_reference}/payloads`; one SMS thread in a tenant whose threads are not yet backfilled (`thread_id` filters); what a device user\'s hold covers, per device of theirs',
      builders: ['keys.payload.listByDevice'],
      example: () => payloadKeys.listByDevice(EXAMPLE_CLIENT, '<device_reference>'),
    },
    {
      name: 'List payloads of a device user',
      serves: '`GET users/{device_user_reference}/payloads`; what a device user\'s hold covers',
      builders: ['keys.payload.listByDeviceUser'],
      example: () => payloadKeys.listByDeviceUser(EXAMPLE_CLIENT, '<device_user_reference>'),
    },
    {
      name: 'Payloads a transfer carries',
      serves: 'the `transfer` job\'s selection: sort key between `report_from` and `<report_to>~`; type (and the window\'s open start) filter',
      builders: ['keys.payload.listProcessed'],
      example: () => payloadKeys.listProcessed(EXAMPLE_CLIENT),
    },
    {
      name: 'Messages of one SMS thread',
      serves: '`GET devices/{device_reference}/sms/{thread_id}`, oldest first (payload_time range: `between`), once the tenant is indexed (the account\'s `thread_indexed_at`)',
      builders: ['keys.payload.listThread'],
      example: () => payloadKeys.listThread(EXAMPLE_CLIENT, '<device_reference>', '<thread_id>'),
    },
  ],
}));
