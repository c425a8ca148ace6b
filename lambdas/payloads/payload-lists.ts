import type { AccessContext } from '#core/auth/access/access-context.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { payloadAccess } from '#core/auth/access/payload-access.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys, type ListKey } from '#core/store/keys.ts';
import { isoOf, timeRange } from '#core/store/time-range.ts';
import { withoutKeys } from '#core/store/items.ts';
import { MESSAGE_PAYLOAD_TYPES, type PayloadDateFilterType, type PayloadState } from '#shared/constants/payloads.ts';
import { Payload } from '#shared/contract/entities/payloads.ts';
import { expandPayloadTypes, type PayloadTypeFilter } from '#shared/contract/endpoints/payloads.ts';
import { payloadPage, type PagingQuery } from './payload-page.ts';

export type ListDependencies = Pick<Dependencies, 'table' | 'cursors'>;

/** The filters of the three payload lists (the contract's payloadFilters, parsed). */
export interface PayloadListQuery extends PagingQuery {
  from?: string | undefined;
  to?: string | undefined;
  date_filter_type: PayloadDateFilterType;
  /** Type and group names as sent (`Calls`, `Messages` stand for their types). */
  payload_types?: PayloadTypeFilter[] | undefined;
  payload_state?: PayloadState | undefined;
  group?: string | undefined;
  phone_number?: string | undefined;
  is_late?: boolean | undefined;
  device_reference?: string | undefined;
  device_user_reference?: string | undefined;
}

/**
 * A payload item as a list shows it: the contract's fields only. The sealed meta stays off lists (opening it costs
 * a key unwrap per payload); `GET payloads/{ref}` shows it decrypted.
 */
export function toListedPayload(item: TableItem): Payload {
  const { meta, ...rest } = withoutKeys(item);
  void meta;
  return Payload.parse(rest);
}

/** Digits only, so `+44 20 7946 0000` finds `+442079460000`. */
const digits = (value: string) => value.replace(/\D/g, '');

function numbersOf(item: TableItem): string[] {
  return typeof item.all_numbers === 'string' ? item.all_numbers.split(',').map(digits).filter((entry) => entry.length > 0) : [];
}

type ItemTest = (item: TableItem) => boolean;

/** The date filter on updated_at or processed_at (not a key: applied to the items read), or undefined. */
function attributeRange(query: PayloadListQuery): ItemTest | undefined {
  if (query.date_filter_type === 'payload_time' || (query.from === undefined && query.to === undefined)) return undefined;
  timeRange(query.from, query.to); // the same 400 for from after to
  const lower = query.from === undefined ? undefined : isoOf(query.from, 'start');
  const upper = query.to === undefined ? undefined : isoOf(query.to, 'end');
  const attribute = query.date_filter_type;
  return (item) => {
    const value = item[attribute];
    if (typeof value !== 'string') return false;
    return (lower === undefined || value >= lower) && (upper === undefined || value <= upper);
  };
}

/**
 * `GET payloads`, `devices/{d}/payloads`, `users/{u}/payloads`: the narrowest index first (device on gsi2, device
 * user on gsi3, else the tenant on gsi1), newest first by payload_time. A payload_time range is the Query's key
 * condition; updated_at and processed_at ranges, types, state, group, number and is_late filter the items read.
 * The caller's group and payload-type restriction filters pages and totals alike.
 */
export function listPayloads(
  deps: ListDependencies,
  client: string,
  access: AccessContext | undefined,
  query: PayloadListQuery,
) {
  const restriction = payloadAccess(deps, client, access, 'payloads:List');
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
    types === undefined ? undefined : (item) => types.has(String(item.payload_type)),
    query.payload_state === undefined ? undefined : (item) => item.payload_state === query.payload_state,
    query.group === undefined ? undefined : (item) => item.group === query.group,
    query.is_late === undefined ? undefined : (item) => (item.is_late === true) === query.is_late,
    number === undefined ? undefined : (item) => number.length > 0 && numbersOf(item).includes(number),
    // On the device index, a device user filter still applies (and the other way round never arises).
    query.device_reference !== undefined && query.device_user_reference !== undefined
      ? (item) => item.device_user_reference === query.device_user_reference
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
    device_user_reference: query.device_user_reference,
  };
  return payloadPage(
    deps,
    client,
    list,
    range,
    'newest',
    query,
    filters,
    (items) => restriction.filter(items.filter((item) => present.every((test) => test(item)))),
    toListedPayload,
  );
}

export interface ThreadQuery extends PagingQuery {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * `devices/{d}/sms/{thread_id}`: the messages of one thread, OLDEST first (a conversation reads downwards). The
 * device's payload index in ascending payload_time, keeping message payloads whose plaintext `thread_id` attribute
 * (set by the processing from the decrypted meta, like the numbers) is the thread.
 */
export function listSmsThread(
  deps: ListDependencies,
  client: string,
  access: AccessContext | undefined,
  deviceReference: string,
  threadId: string,
  query: ThreadQuery,
) {
  const restriction = payloadAccess(deps, client, access, 'payloads:List');
  const messages = new Set<string>(MESSAGE_PAYLOAD_TYPES);
  const inThread = (item: TableItem) => messages.has(String(item.payload_type)) && item.thread_id === threadId;
  return payloadPage(
    deps,
    client,
    keys.payload.listByDevice(client, deviceReference),
    timeRange(query.from, query.to),
    'oldest',
    query,
    { thread_id: threadId, from: query.from, to: query.to },
    (items) => restriction.filter(items.filter(inThread)),
    toListedPayload,
  );
}
