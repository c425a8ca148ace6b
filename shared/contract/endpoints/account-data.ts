import * as z from 'zod';
import { LegalHoldTargetType, RetentionRecordType } from '../../constants/account.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  Disposal,
  DisposalAction,
  LegalHold,
  LegalHoldRequest,
  RetentionPolicy,
  RetentionPolicyRequest,
  RetentionPreview,
} from '../entities/account-data.ts';
import { ApprovalDecision, ApprovalStatus, PendingChange } from '../entities/approvals.ts';
import { pageOrTotal } from '../entities/common.ts';
import { QueryBoolean, text } from '../fields.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

const base = { surface: 'client', auth: 'client-app', group: 'account-data' } as const;

export const accountDataEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.account.retention.get',
    method: 'GET',
    path: '/account/retention',
    action: 'retention:Read',
    summary: 'Retention policy per record type.',
    response: RetentionPolicy,
  }),
  defineEndpoint({
    ...base,
    id: 'client.account.retention.put',
    method: 'PUT',
    path: '/account/retention',
    action: 'retention:Update',
    summary: 'Replace the retention policy.',
    body: RetentionPolicyRequest,
    // 202 with the pending change when the request shortens a period or removes a rule (four eyes).
    response: z.union([RetentionPolicy, PendingChange]),
  }),
  defineEndpoint({
    ...base,
    id: 'client.account.retention.preview',
    method: 'POST',
    path: '/account/retention/preview',
    action: 'retention:Preview',
    summary:
      'How many records the next retention run would delete and destroy under a proposed policy, beside the current one (per record type and payload type; counts stop at a cap).',
    body: RetentionPolicyRequest,
    response: RetentionPreview,
  }),
  defineEndpoint({
    ...base,
    id: 'client.disposals.list',
    method: 'GET',
    path: '/disposals',
    action: 'disposals:List',
    summary: 'Disposal records of the retention job (what was deleted or destroyed, when, under which rule), newest first.',
    query: listQuery({
      ...dateRangeQuery,
      record_type: RetentionRecordType.optional(),
      action: DisposalAction.optional(),
      run_id: text(1, 64).optional(),
    }),
    response: pageOrTotal(Disposal),
  }),
  defineEndpoint({
    ...base,
    id: 'client.legal-holds.list',
    method: 'GET',
    path: '/account/legal_holds',
    action: 'legalHolds:List',
    summary: 'Legal holds on portal users and device users.',
    query: listQuery({ target_type: LegalHoldTargetType.optional(), active_only: QueryBoolean.optional() }),
    response: pageOrTotal(LegalHold),
  }),
  defineEndpoint({
    ...base,
    id: 'client.legal-holds.put',
    method: 'PUT',
    path: '/account/legal_holds/{target_type}/{target}',
    action: 'legalHolds:Update',
    summary: 'Place (or update) a legal hold on a portal user or device user.',
    params: params('target_type', 'target'),
    body: LegalHoldRequest,
    // 202 with the pending change when `is_active: false` releases an active hold (four eyes).
    response: z.union([LegalHold, PendingChange]),
  }),
  defineEndpoint({
    ...base,
    id: 'client.legal-holds.delete',
    method: 'DELETE',
    path: '/account/legal_holds/{target_type}/{target}',
    action: 'legalHolds:Release',
    summary: 'Release a legal hold (kept as an inactive record); an active hold answers 202 with the pending release, applied when a second person approves it.',
    params: params('target_type', 'target'),
    response: z.union([LegalHold, PendingChange]),
  }),
  defineEndpoint({
    ...base,
    id: 'client.approvals.list',
    method: 'GET',
    path: '/approvals',
    action: 'approvals:List',
    summary: 'Changes that shorten a record\'s life awaiting a second approver (and those decided or expired), newest first.',
    query: listQuery({ status: ApprovalStatus.optional() }),
    response: pageOrTotal(PendingChange),
  }),
  defineEndpoint({
    ...base,
    id: 'client.approvals.read',
    method: 'GET',
    path: '/approvals/{approval_reference}',
    action: 'approvals:Read',
    summary: 'One pending change.',
    params: params('approval_reference'),
    response: PendingChange,
  }),
  defineEndpoint({
    ...base,
    id: 'client.approvals.approve',
    method: 'POST',
    path: '/approvals/{approval_reference}/approve',
    action: 'approvals:Approve',
    summary: 'Approve and apply a pending change: needs the permission the change needs, and someone other than its requester.',
    params: params('approval_reference'),
    response: PendingChange,
  }),
  defineEndpoint({
    ...base,
    id: 'client.approvals.reject',
    method: 'POST',
    path: '/approvals/{approval_reference}/reject',
    action: 'approvals:Reject',
    summary: 'Reject a pending change (its requester may withdraw it): nothing changes.',
    params: params('approval_reference'),
    body: ApprovalDecision,
    response: PendingChange,
  }),
] as const;
