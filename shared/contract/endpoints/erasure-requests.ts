import { defineEndpoint } from '../endpoint.ts';
import { pageOrTotal } from '../entities/common.ts';
import { CreateErasureRequest, ErasureRequest, ErasureState, ReviewErasureRequest } from '../entities/erasure-requests.ts';
import { DeviceUserReference } from '../fields.ts';
import { params } from './params.ts';
import { listQuery } from './query.ts';

/**
 * Erasure requests (GDPR Art 17, docs/erasure.md), in the account-data group beside retention and legal holds, whose
 * rules they apply. A request is about a device user: a caller sees only requests about device users in their groups
 * (404 otherwise), as legal holds on device users do.
 */
const base = { surface: 'client', auth: 'client-app', group: 'account-data' } as const;

export const erasureRequestEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.erasure-requests.create',
    method: 'POST',
    path: '/account/erasure_requests',
    action: 'erasureRequests:Create',
    summary: 'Record an erasure request for a device user (who asked, when, by which channel); the decision job starts at once.',
    body: CreateErasureRequest,
    response: ErasureRequest,
  }),
  defineEndpoint({
    ...base,
    id: 'client.erasure-requests.list',
    method: 'GET',
    path: '/account/erasure_requests',
    action: 'erasureRequests:List',
    summary: 'Erasure requests about device users in your groups, newest first.',
    query: listQuery({ erasure_state: ErasureState.optional(), device_user_reference: DeviceUserReference.optional() }),
    response: pageOrTotal(ErasureRequest),
  }),
  defineEndpoint({
    ...base,
    id: 'client.erasure-requests.get',
    method: 'GET',
    path: '/account/erasure_requests/{erasure_request_reference}',
    action: 'erasureRequests:Get',
    summary: 'One erasure request with its progress, decision and report: what was erased, what is kept, under which exception and until when.',
    params: params('erasure_request_reference'),
    response: ErasureRequest,
  }),
  defineEndpoint({
    ...base,
    id: 'client.erasure-requests.review',
    method: 'POST',
    path: '/account/erasure_requests/{erasure_request_reference}/review',
    action: 'erasureRequests:Review',
    summary: 'Approve (erasure runs) or reject a decided erasure request, with a reason: someone other than who recorded it.',
    params: params('erasure_request_reference'),
    body: ReviewErasureRequest,
    response: ErasureRequest,
  }),
];
