import * as z from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { ActivityChainState, DeviceActivity, UserActivity } from '../entities/activity.ts';
import { pageOrTotal } from '../entities/common.ts';
import { DeviceReference, DeviceUserReference, GroupReference, text } from '../fields.ts';
import { dateRangeQuery, listQuery } from './query.ts';
import { QueryBoolean } from '../fields.ts';
import { ACTION_KINDS } from '../action-wording.ts';

const ActionKind = z.enum(ACTION_KINDS);

const base = { surface: 'admin', auth: 'user', group: 'audit' } as const;

export const auditEndpoints = [
  defineEndpoint({
    ...base,
    id: 'admin.activities.list',
    method: 'GET',
    path: '/activities',
    action: 'activities:List',
    summary: 'Portal user and client app activity (append-only audit trail).',
    query: listQuery({
      ...dateRangeQuery,
      /** One person's records: their stable reference, as the records' `user_id` (a Query on the person's index). */
      user_id: text(1, 255).optional(),
      action: text(1, 255).optional(),
      /** Reads (calls that change nothing) or changes, by the action's kind (shared/contract/action-wording.ts). */
      kind: ActionKind.optional(),
      is_allowed: QueryBoolean.optional(),
    }),
    response: pageOrTotal(UserActivity),
  }),
  defineEndpoint({
    ...base,
    id: 'admin.device-activities.list',
    method: 'GET',
    path: '/device_activities',
    action: 'deviceActivities:List',
    summary: 'Device API activity.',
    query: listQuery({
      ...dateRangeQuery,
      device_reference: DeviceReference.optional(),
      device_user_reference: DeviceUserReference.optional(),
      group: GroupReference.optional(),
      is_allowed: QueryBoolean.optional(),
    }),
    response: pageOrTotal(DeviceActivity),
  }),
  defineEndpoint({
    ...base,
    id: 'getActivityChainState',
    method: 'GET',
    path: '/activities/chain',
    action: 'activities:List',
    summary: 'The audit trails\' hash chains: records linked and waiting, the head, the last signed checkpoint.',
    response: ActivityChainState,
  }),
] as const;

