import type { Endpoint } from '#shared/contract/endpoint.ts';
import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation, useEndpointQuery } from '../../lib/api-hooks.ts';

/**
 * Four eyes (docs/decisions.md "Four eyes"): the changes that shorten a record's life wait here for a second approver.
 * In components/ because three screens show them where they will apply: the legal holds, the retention editor and the
 * approvals list.
 */
export const listApprovals = endpointOf(accountDataEndpoints, 'client.approvals.list');
export const approveApproval = endpointOf(accountDataEndpoints, 'client.approvals.approve');
export const rejectApproval = endpointOf(accountDataEndpoints, 'client.approvals.reject');

/** The changes still waiting (a tenant has a handful at most: one per hold, one for the policy). */
export function usePendingChanges(enabled = true) {
  return useEndpointQuery(listApprovals, { query: { status: 'Pending', limit: '100' } }, { enabled, staleTime: 10_000 });
}

/** Approving applies the change, so what it changes is read again too (`invalidates`). */
export function useApproveChange(invalidates: readonly Endpoint[]) {
  return useEndpointMutation(approveApproval, { invalidates: [listApprovals, ...invalidates] });
}

export function useRejectChange() {
  return useEndpointMutation(rejectApproval, { invalidates: [listApprovals] });
}
