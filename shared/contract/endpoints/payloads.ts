import * as z from 'zod';
import {
  CALL_PAYLOAD_TYPES,
  DataAction,
  MESSAGE_PAYLOAD_TYPES,
  PAYLOAD_TYPES,
  PayloadDateFilterType,
  PayloadDataStatus,
  PayloadState,
  type PayloadType,
} from '../../constants/payloads.ts';
import { defineEndpoint } from '../endpoint.ts';
import { CommentPostRequest, CommentPutRequest, PayloadComment } from '../entities/comments.ts';
import { pageOrTotal, PayloadDataResponse } from '../entities/common.ts';
import { Payload, PayloadAudit } from '../entities/payloads.ts';
import { BulkResult } from '../entities/alerts.ts';
import {
  DeviceReference,
  DeviceUserReference,
  GroupReference,
  PayloadReference,
  PayloadReferenceList,
  QueryBoolean,
  text,
} from '../fields.ts';
import { params } from './params.ts';
import { commaList, dateRangeQuery, listQuery } from './query.ts';

const base = { surface: 'client', auth: 'client-app', group: 'payloads' } as const;

/** The named groups of payload types a filter may give instead of the types (spec point 9). */
export const PAYLOAD_TYPE_GROUPS = { Calls: CALL_PAYLOAD_TYPES, Messages: MESSAGE_PAYLOAD_TYPES } as const;

/** A payload type filter entry: a type name, or a group name (`Calls`, `Messages`) standing for its types. */
export const PayloadTypeFilter = z.enum([...PAYLOAD_TYPES, ...(Object.keys(PAYLOAD_TYPE_GROUPS) as Array<keyof typeof PAYLOAD_TYPE_GROUPS>)]);
export type PayloadTypeFilter = z.infer<typeof PayloadTypeFilter>;

/**
 * The payload types a filter stands for: groups expanded, duplicates dropped, in catalogue order (so `Calls,Call`
 * and `Call,Calls` bind a cursor alike). The contract keeps the names as sent; the server expands them.
 */
export function expandPayloadTypes(filter: readonly PayloadTypeFilter[]): PayloadType[] {
  const wanted = new Set<PayloadType>(
    filter.flatMap((entry): readonly PayloadType[] => (entry === 'Calls' || entry === 'Messages' ? PAYLOAD_TYPE_GROUPS[entry] : [entry])),
  );
  return PAYLOAD_TYPES.filter((type) => wanted.has(type));
}

/** The `payload_types` query value: 1 to 12 unique type or group names, comma-delimited. */
const payloadTypesQuery = commaList(PayloadTypeFilter, 1, PayloadTypeFilter.options.length).optional();

/** Payload list filters; the date range applies to `date_filter_type` (default payload_time). */
const payloadFilters = {
  ...dateRangeQuery,
  date_filter_type: PayloadDateFilterType.default('payload_time'),
  payload_types: payloadTypesQuery,
  payload_state: PayloadState.optional(),
  group: GroupReference.optional(),
  /** A phone number any party of the payload used (searches all_numbers). */
  phone_number: text(1, 255).optional(),
  is_late: QueryBoolean.optional(),
  /**
   * Recordings stored (our addition): `true` keeps the payloads that reached Processed, whatever happened to them
   * since (a deleted or destroyed one keeps its `processed_at`), which is exactly what the payload metrics count;
   * `false` keeps the captures that never did (failed, quarantined, still on their way). docs/decisions.md
   * "Licence use and counts".
   */
  stored: QueryBoolean.optional(),
};

const dataQuery = z.strictObject({ action: DataAction.default('download') });

/**
 * What a data link's `action` needs: playing a recording and viewing a photo or a message's content need
 * `payloads:Play`; taking a copy needs `payloads:Download` (which includes playing, shared/contract/actions.ts).
 */
const dataActionPermission = {
  field: 'action',
  actions: { play: 'payloads:Play', view: 'payloads:Play', download: 'payloads:Download' },
} as const satisfies { field: 'action'; actions: Record<DataAction, string> };

/** The data answer: the spec's `s3_url`. */
export const PayloadDataAnswer = PayloadDataResponse;
export type PayloadDataAnswer = z.infer<typeof PayloadDataAnswer>;

/**
 * A recording's waveform (our addition, docs/decisions.md "Waveforms"): a link, as short-lived as a data link, to the
 * small JSON of peaks processing computed (`WaveformPeaks`). Derived data, not the recording: reading it is the call's
 * activity record, never a payload audit "play".
 */
export const PayloadWaveformAnswer = z.object({ peaks_url: z.string() });
export type PayloadWaveformAnswer = z.infer<typeof PayloadWaveformAnswer>;

/** Bulk data links: 1 to 100 unique payload references (comma-delimited) and the action. */
export const BulkDataQuery = z.strictObject({
  payload_references: commaList(PayloadReference, 1, 100),
  action: DataAction.default('download'),
});

export const BulkDataResponse = z.object({
  data: z.array(
    z.object({ payload_reference: z.string(), status: PayloadDataStatus, s3_url: z.string().optional() }),
  ),
});

/** Confirm receipt of 1 to 100 payloads. */
export const ReceiptsRequest = z.strictObject({ payload_references: PayloadReferenceList });

export const payloadEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.payloads.list',
    method: 'GET',
    path: '/payloads',
    action: 'payloads:List',
    summary: 'Payloads the caller may read (by group and payload type).',
    query: listQuery({
      ...payloadFilters,
      device_reference: DeviceReference.optional(),
      device_user_reference: DeviceUserReference.optional(),
    }),
    response: pageOrTotal(Payload),
  }),
  defineEndpoint({
    ...base,
    id: 'client.devices.payloads',
    method: 'GET',
    path: '/devices/{device_reference}/payloads',
    action: 'payloads:List',
    summary: "One device's payloads.",
    params: params('device_reference'),
    query: listQuery(payloadFilters),
    response: pageOrTotal(Payload),
  }),
  defineEndpoint({
    ...base,
    id: 'client.users.payloads',
    method: 'GET',
    path: '/users/{device_user_reference}/payloads',
    action: 'payloads:List',
    summary: "A device user's payloads.",
    params: params('device_user_reference'),
    query: listQuery(payloadFilters),
    response: pageOrTotal(Payload),
  }),
  defineEndpoint({
    ...base,
    id: 'client.devices.sms-thread',
    method: 'GET',
    path: '/devices/{device_reference}/sms/{thread_id}',
    action: 'payloads:List',
    summary: 'The messages of one SMS thread on a device, oldest first.',
    params: params('device_reference', 'thread_id'),
    query: listQuery({ ...dateRangeQuery }),
    response: pageOrTotal(Payload),
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.get',
    method: 'GET',
    path: '/payloads/{payload_reference}',
    action: 'payloads:Read',
    summary: 'One payload with its meta.',
    params: params('payload_reference'),
    response: Payload,
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.audit',
    method: 'GET',
    path: '/payloads/{payload_reference}/audit',
    action: 'payloads:ReadAudit',
    summary: 'Plays, downloads, transfers and receipts of one payload.',
    params: params('payload_reference'),
    response: PayloadAudit,
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.data',
    method: 'GET',
    path: '/payloads/{payload_reference}/data',
    action: 'payloads:Download',
    actionByQuery: dataActionPermission,
    summary: 'A short-lived link to play, view or download the payload (each link recorded in its audit).',
    params: params('payload_reference'),
    query: dataQuery,
    response: PayloadDataAnswer,
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.waveform',
    method: 'GET',
    path: '/payloads/{payload_reference}/waveform',
    action: 'payloads:Play',
    summary: "A short-lived link to a recording's waveform peaks (derived data: not a play).",
    params: params('payload_reference'),
    response: PayloadWaveformAnswer,
  }),
  defineEndpoint({
    ...base,
    id: 'client.data.bulk',
    method: 'GET',
    path: '/data',
    action: 'payloads:Download',
    actionByQuery: dataActionPermission,
    summary: 'Links for 1 to 100 payloads, each with its PayloadDataStatus.',
    query: BulkDataQuery,
    response: BulkDataResponse,
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.restore',
    method: 'POST',
    path: '/payloads/{payload_reference}/restore',
    action: 'payloads:Restore',
    summary: 'Restore a logically deleted payload.',
    params: params('payload_reference'),
    response: Payload,
  }),
  defineEndpoint({
    ...base,
    id: 'client.receipts.confirm',
    method: 'POST',
    path: '/receipts',
    action: 'payloads:ConfirmReceipt',
    summary: 'Confirm receipt of 1 to 100 payloads.',
    body: ReceiptsRequest,
    response: BulkResult,
  }),
  defineEndpoint({
    ...base,
    id: 'client.comments.list',
    method: 'GET',
    path: '/comments',
    action: 'comments:List',
    summary: 'Comments across payloads.',
    query: listQuery({
      ...dateRangeQuery,
      payload_types: payloadTypesQuery,
      group: GroupReference.optional(),
      /** Only comments this user raised (the comment's `raised_by`, exactly as shown). */
      raised_by: text(1, 255).optional(),
      include_closed: QueryBoolean.optional(),
    }),
    response: pageOrTotal(PayloadComment),
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.comments.list',
    method: 'GET',
    path: '/payloads/{payload_reference}/comments',
    action: 'comments:List',
    summary: "One payload's comments.",
    params: params('payload_reference'),
    query: listQuery({ include_closed: QueryBoolean.optional() }),
    response: pageOrTotal(PayloadComment),
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.comments.create',
    method: 'POST',
    path: '/payloads/{payload_reference}/comments',
    action: 'comments:Create',
    summary: 'Comment on a payload, optionally on a part of the recording.',
    params: params('payload_reference'),
    body: CommentPostRequest,
    response: PayloadComment,
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.comments.update',
    method: 'PUT',
    path: '/payloads/{payload_reference}/comments/{comment_id}',
    action: 'comments:Update',
    summary: 'Edit a comment (a new comment_version).',
    params: params('payload_reference', 'comment_id'),
    body: CommentPutRequest,
    response: PayloadComment,
  }),
  defineEndpoint({
    ...base,
    id: 'client.payloads.comments.delete',
    method: 'DELETE',
    path: '/payloads/{payload_reference}/comments/{comment_id}',
    action: 'comments:Delete',
    summary: 'Close (logically delete) a comment.',
    params: params('payload_reference', 'comment_id'),
    response: PayloadComment,
  }),
] as const;
