import * as z from 'zod';
import { SupervisionItemState } from '../../constants/supervision.ts';
import { defineEndpoint } from '../endpoint.ts';
import { BulkResult } from '../entities/alerts.ts';
import { OkResponse, pageOrTotal, paginated } from '../entities/common.ts';
import {
  SupervisionApplyRequest,
  SupervisionBulkUpdate,
  SupervisionItem,
  SupervisionItemDetail,
  SupervisionItemUpdate,
  SupervisionPolicy,
  SupervisionPolicyRequest,
  SupervisionPreview,
  SupervisionPreviewRequest,
  SupervisionReportResponse,
} from '../entities/supervision.ts';
import { DeviceUserReference, GroupReference, QueryBoolean, SupervisionPolicyReference, UserReference } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery, referenceFilterQuery } from './query.ts';

/**
 * Supervision: policies that raise review items (lexicon terms, sampling), the review queue with a written disposition
 * for every item, and the reports a principal shows an examiner (FINRA 3110, docs/compliance.md).
 */
const admin = { surface: 'admin', auth: 'user', group: 'supervision' } as const;

/** Queue filters; the period is on the recording's time. `overdue` keeps items past their deadline and not closed. */
const itemListQuery = listQuery({
  ...dateRangeQuery,
  state: SupervisionItemState.optional(),
  policy_reference: SupervisionPolicyReference.optional(),
  assignee: UserReference.optional(),
  device_user_reference: DeviceUserReference.optional(),
  group: GroupReference.optional(),
  overdue: QueryBoolean.optional(),
});

export const supervisionEndpoints = [
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.list',
    method: 'GET',
    path: '/supervision/policies',
    action: 'supervision:ListPolicies',
    summary: 'Supervision policies (lexicon, ignore, sampling).',
    query: listQuery(referenceFilterQuery),
    response: paginated(SupervisionPolicy),
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.get',
    method: 'GET',
    path: '/supervision/policies/{policy_reference}',
    action: 'supervision:ReadPolicy',
    summary: 'One supervision policy with its latest apply run.',
    params: params('policy_reference'),
    response: SupervisionPolicy,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.create',
    method: 'POST',
    path: '/supervision/policies/{policy_reference}',
    action: 'supervision:UpdatePolicy',
    summary: 'Create a supervision policy.',
    params: params('policy_reference'),
    body: SupervisionPolicyRequest,
    response: SupervisionPolicy,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.update',
    method: 'PUT',
    path: '/supervision/policies/{policy_reference}',
    action: 'supervision:UpdatePolicy',
    summary: 'Replace a supervision policy; items it already raised keep their hits.',
    params: params('policy_reference'),
    body: SupervisionPolicyRequest,
    response: SupervisionPolicy,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.delete',
    method: 'DELETE',
    path: '/supervision/policies/{policy_reference}',
    action: 'supervision:DeletePolicy',
    summary: 'Delete a supervision policy; items it raised and their history stay.',
    params: params('policy_reference'),
    response: OkResponse,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.preview',
    method: 'POST',
    path: '/supervision/policies/{policy_reference}/preview',
    action: 'supervision:PreviewPolicy',
    summary: 'How many items a policy, as sent, would have raised over a past period, with examples.',
    params: params('policy_reference'),
    body: SupervisionPreviewRequest,
    response: SupervisionPreview,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.policies.apply',
    method: 'POST',
    path: '/supervision/policies/{policy_reference}/apply',
    action: 'supervision:ApplyPolicy',
    summary: 'Apply a saved policy to a past period, as a job whose progress the policy shows.',
    params: params('policy_reference'),
    body: SupervisionApplyRequest,
    response: SupervisionPolicy,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.items.list',
    method: 'GET',
    path: '/supervision/items',
    action: 'supervision:ListItems',
    summary: 'The review queue, filtered by state, policy, assignee, device user, group, period and overdue.',
    query: itemListQuery,
    response: pageOrTotal(SupervisionItem),
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.items.get',
    method: 'GET',
    path: '/supervision/items/{item_reference}',
    action: 'supervision:ReadItem',
    summary: 'One review item with its history.',
    params: params('item_reference'),
    response: SupervisionItemDetail,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.items.update',
    method: 'PUT',
    path: '/supervision/items/{item_reference}',
    action: 'supervision:ReviewItem',
    summary: 'Claim, release, assign, escalate, close (with a disposition) or reopen (with a reason) a review item.',
    params: params('item_reference'),
    body: SupervisionItemUpdate,
    response: SupervisionItemDetail,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.items.bulk',
    method: 'PUT',
    path: '/supervision/items',
    action: 'supervision:ReviewItem',
    summary: 'The same action on 1 to 100 review items, each recorded in its own history as bulk.',
    body: SupervisionBulkUpdate,
    response: BulkResult,
  }),
  defineEndpoint({
    ...admin,
    id: 'admin.supervision.reports.get',
    method: 'GET',
    path: '/supervision/reports/{report}',
    action: 'supervision:ReadReports',
    summary: 'Outstanding work, outcomes per policy and term, or reviewers, over a period.',
    params: params('report'),
    query: z.strictObject({ ...dateRangeQuery }),
    response: SupervisionReportResponse,
  }),
] as const;
