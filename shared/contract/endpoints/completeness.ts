import { CompletenessDimension, CompletenessOutcome, LedgerPayloadType } from '../../constants/completeness.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pageOrTotal, paginated } from '../entities/common.ts';
import { CompletenessEntry, CompletenessRow } from '../entities/completeness.ts';
import { DeviceReference, DeviceUserReference, GroupReference } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

/**
 * Capture completeness: what the phones' ledgers saw against what Verity holds, per day (shared/constants/completeness.ts).
 * The period (`from`, `to`) is on the entry's start time; days are UTC. Group and payload-type scope apply to every row
 * and count: a row counts only the entries of the caller's payload types, and only groups the caller may read appear.
 */
const base = { surface: 'client', auth: 'client-app', group: 'completeness' } as const;

/** An `outcome` filter keeps the rows (or entries) with at least one of that outcome. */
const outcomeFilter = { outcome: CompletenessOutcome.optional() };

export const completenessEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.completeness.list',
    method: 'GET',
    path: '/completeness',
    action: 'completeness:List',
    summary: 'Capture completeness per day for the tenant, each group, device user or device (`by`), newest day first.',
    query: listQuery({
      ...dateRangeQuery,
      by: CompletenessDimension.default('group'),
      group: GroupReference.optional(),
      ...outcomeFilter,
    }),
    response: pageOrTotal(CompletenessRow),
  }),
  defineEndpoint({
    ...base,
    id: 'client.completeness.device',
    method: 'GET',
    path: '/devices/{device_reference}/completeness',
    action: 'completeness:List',
    summary: 'Capture completeness of one device per day, newest first.',
    params: params('device_reference'),
    query: listQuery({ ...dateRangeQuery }),
    response: paginated(CompletenessRow),
  }),
  defineEndpoint({
    ...base,
    id: 'client.completeness.device-user',
    method: 'GET',
    path: '/users/{device_user_reference}/completeness',
    action: 'completeness:List',
    summary: 'Capture completeness of one device user per day, newest first.',
    params: params('device_user_reference'),
    query: listQuery({ ...dateRangeQuery }),
    response: paginated(CompletenessRow),
  }),
  defineEndpoint({
    ...base,
    id: 'client.completeness.entries',
    method: 'GET',
    path: '/completeness/entries',
    action: 'completeness:ListEntries',
    summary:
      'The ledger entries (and unexpected recordings) behind a completeness count, newest first. Name an `outcome`, a ' +
      '`device_user_reference` or a `device_reference` (else 400): each is one list by start time; a device user\'s ' +
      'list holds their Unexpected recordings beside their entries.',
    query: listQuery({
      ...dateRangeQuery,
      ...outcomeFilter,
      group: GroupReference.optional(),
      device_user_reference: DeviceUserReference.optional(),
      device_reference: DeviceReference.optional(),
      payload_type: LedgerPayloadType.optional(),
    }),
    response: pageOrTotal(CompletenessEntry),
  }),
];
