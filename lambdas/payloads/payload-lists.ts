import type { TenantCaller } from '#core/http/caller.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys, type ListKey } from '#core/store/keys.ts';
import { isoOf, timeRange } from '#core/store/time-range.ts';
import { readAccount } from '#core/store/entities/account.ts';
import { readPayload, toPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { MESSAGE_PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { expandPayloadTypes, type payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import type { QueryOf } from '#core/store/paging.ts';
import { payloadPage } from './payload-page.ts';

/** The payload list's query as the contract parses it (the per-device and per-user lists take a subset). */
export type PayloadListQuery = QueryOf<typeof payloadEndpoints, 'client.payloads.list'>;

/**
 * A payload item as a list shows it: the contract's fields only. The sealed meta stays off lists (opening it costs
 * a key unwrap per payload); `GET payloads/{ref}` shows it decrypted.
 */
export function toListedPayload(item: TableItem): Payload {
  return toPayload(readPayload(item));
}

/** Digits only, so `+44 20 7946 0000` finds `+442079460000`. */
const digits = (value: string) => value.replace(/\D/g, '');

function numbersOf(payload: PayloadItem): string[] {
  return payload.all_numbers === undefined ? [] : payload.all_numbers.split(',').map(digits).filter((entry) => entry.length > 0);
}

type ItemTest = (payload: PayloadItem) => boolean;

/** The items of a batch whose payload passes every test. */
const passing = (items: readonly TableItem[], tests: readonly ItemTest[]) =>
  items.filter((item) => {
    const payload = readPayload(item);
    return tests.every((test) => test(payload));
  });

/** The date filter on updated_at or processed_at (not a key: applied to the items read), or undefined. */
function attributeRange(query: PayloadListQuery): ItemTest | undefined {
  if (query.date_filter_type === 'payload_time' || (query.from === undefined && query.to === undefined)) return undefined;
  timeRange(query.from, query.to); // the same 400 for from after to
  const lower = query.from === undefined ? undefined : isoOf(query.from, 'start');
  const upper = query.to === undefined ? undefined : isoOf(query.to, 'end');
  const attribute = query.date_filter_type;
  return (payload) => {
    const value = payload[attribute];
    if (value === undefined) return false;
    return (lower === undefined || value >= lower) && (upper === undefined || value <= upper);
  };
}

/**
 * `GET payloads`, `devices/{d}/payloads`, `users/{u}/payloads`: the narrowest index first (device on gsi2, device
 * user on gsi3, else the tenant on gsi1), newest first by payload_time. A payload_time range is the Query's key
 * condition; updated_at and processed_at ranges, types, state, group, number and is_late filter the items read.
 * The caller's group and payload-type restriction for the endpoint's action filters pages and totals alike.
 */
export function listPayloads(caller: TenantCaller, query: PayloadListQuery) {
  const { deps, tenant: client } = caller;
  const restriction = caller.payloadScope();
  const list: ListKey =
    query.device_reference !== undefined
      ? keys.payload.listByDevice(client, query.device_reference)
      : query.device_user_reference !== undefined
        ? keys.payload.listByDeviceUser(client, query.device_user_reference)
        : keys.payload.list(client);
  const range = query.date_filter_type === 'payload_time' ? timeRange(query.from, query.to) : undefined;
  const expanded = query.payload_types === undefined ? undefined : expandPayloadTypes(query.payload_types);
  const types = expanded === undefined ? undefined : new Set<string>(expanded);
  const number = query.phone_number === undefined ? undefined : digits(query.phone_number);
  const tests: Array<ItemTest | undefined> = [
    types === undefined ? undefined : (payload) => types.has(payload.payload_type),
    query.payload_state === undefined ? undefined : (payload) => payload.payload_state === query.payload_state,
    query.group === undefined ? undefined : (payload) => payload.group === query.group,
    query.is_late === undefined ? undefined : (payload) => (payload.is_late === true) === query.is_late,
    query.stored === undefined ? undefined : (payload) => (payload.processed_at !== undefined) === query.stored,
    number === undefined ? undefined : (payload) => number.length > 0 && numbersOf(payload).includes(number),
    // On the device index, a device user filter still applies (and the other way round never arises).
    query.device_reference !== undefined && query.device_user_reference !== undefined
      ? (payload) => payload.device_user_reference === query.device_user_reference
      : undefined,
    attributeRange(query),
  ];
  const present = tests.filter((test): test is ItemTest => test !== undefined);
  const filters = {
    date_filter_type: query.date_filter_type,
    from: query.from,
    to: query.to,
    payload_types: expanded?.join(','),
    payload_state: query.payload_state,
    group: query.group,
    phone_number: query.phone_number,
    is_late: query.is_late,
    stored: query.stored,
    device_user_reference: query.device_user_reference,
  };
  return payloadPage(deps, client, {
    list,
    range,
    order: 'newest',
    query,
    filters,
    keep: (items) => restriction.filter(passing(items, present)),
    toData: toListedPayload,
  });
}

export type ThreadQuery = QueryOf<typeof payloadEndpoints, 'client.devices.sms-thread'>;

/**
 * `devices/{d}/sms/{thread_id}`: the messages of one thread, OLDEST first (a conversation reads downwards), in
 * ascending payload_time. Once the tenant's messages all carry their byThread keys (the account's `thread_indexed_at`),
 * one Query of the thread's own partition, so a page costs its messages whatever else the device recorded. Before
 * that, the device's payload index, keeping message payloads whose plaintext `thread_id` attribute (set by the
 * processing from the decrypted meta, like the numbers) is the thread: dearer, never short of a message written before
 * the index. Either way the same test keeps a message (the index holds exactly what it passes: threadIndexKeys).
 */
export async function listSmsThread(caller: TenantCaller, deviceReference: string, threadId: string, query: ThreadQuery) {
  const { deps, tenant: client } = caller;
  const restriction = caller.payloadScope();
  const messages = new Set<string>(MESSAGE_PAYLOAD_TYPES);
  const inThread = (payload: PayloadItem) => messages.has(payload.payload_type) && payload.thread_id === threadId;
  return payloadPage(deps, client, {
    list: (await threadsIndexed(caller)) ? keys.payload.listThread(client, deviceReference, threadId) : keys.payload.listByDevice(client, deviceReference),
    range: timeRange(query.from, query.to),
    order: 'oldest',
    query,
    filters: { thread_id: threadId, from: query.from, to: query.to },
    keep: (items) => restriction.filter(passing(items, [inThread])),
    toData: toListedPayload,
  });
}

/** Whether every message of the tenant with a thread carries its byThread keys (entities/account.ts). */
async function threadsIndexed({ deps, tenant: client }: TenantCaller): Promise<boolean> {
  const account = await deps.table.get(keys.account.item(client));
  return account !== undefined && readAccount(account).thread_indexed_at !== undefined;
}
