import * as z from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { ActivityChainState, DeviceActivity, UserActivity } from '../entities/activity.ts';
import { pageOrTotal } from '../entities/common.ts';
import { DeviceReference, DeviceUserReference, GroupReference, text } from '../fields.ts';
import { dateRangeQuery, listQuery } from './query.ts';
import { QueryBoolean } from '../fields.ts';
import { ACTION_KINDS } from '../action-wording.ts';
import { ActivityExport, ActivityExportRequest, AuditSigningKey } from '../entities/activity-export.ts';
import { RecordVersion, VersionedEntity } from '../entities/record-versions.ts';
import { paginated } from '../entities/common.ts';

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
  defineEndpoint({
    ...base,
    id: 'admin.history.list',
    method: 'GET',
    path: '/history/{entity}/{reference}',
    // The versions of a record are part of the audit trail (each names the activity record that replaced it); the
    // record's own read rules apply on top (group scope, and the read permission of its kind).
    action: 'activities:List',
    summary: 'The earlier versions of one record, newest first (a comment\'s reference is `<payload_reference>~<comment_id>`).',
    params: z.strictObject({ entity: VersionedEntity, reference: text(1, 512) }),
    query: z.strictObject({ last_key: text(1, 2048).optional(), limit: listQuery({}).shape.limit }),
    response: paginated(RecordVersion),
  }),
  defineEndpoint({
    ...base,
    id: 'admin.activityExports.create',
    method: 'POST',
    path: '/activities/exports',
    action: 'activities:Export',
    summary: 'Export one activity trail of a period as one signed, verifiable file (a job; docs/audit-export.md).',
    body: ActivityExportRequest,
    response: ActivityExport,
  }),
  defineEndpoint({
    ...base,
    id: 'admin.activityExports.read',
    method: 'GET',
    path: '/activities/exports/{export_id}',
    action: 'activities:Export',
    summary: 'An export\'s progress, and when done a download link valid for a few minutes.',
    params: z.strictObject({ export_id: text(1, 64) }),
    response: ActivityExport,
  }),
  defineEndpoint({
    ...base,
    id: 'admin.auditSigningKey.read',
    method: 'GET',
    path: '/activities/signing-key',
    action: 'activities:List',
    summary: 'The public half of the key that signs the audit checkpoints and exports (PEM), to verify them with.',
    response: AuditSigningKey,
  }),
] as const;

