import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useCursorList, useEndpointQuery } from '../../../lib/api-hooks.ts';
import { useFollowPending, WAITING_REFRESH_MS } from './follow-pending.ts';

/** `GET /supportaccess/{approval_status}` (staff): requests across clients in one state. */
export const staffRequestsByState = endpointOf(supportAccessEndpoints, 'internal.supportaccess.by-status');

/** How many of the staff's requests wait for a decision; asked again while there are some. */
export function usePendingCount() {
  const query = useEndpointQuery(
    staffRequestsByState,
    { params: { approval_status: 'pending' }, query: { result_type: 'total' } },
    { refetchInterval: (current) => ((current.state.data?.count ?? 0) > 0 ? WAITING_REFRESH_MS : false), staleTime: 0 },
  );
  return query.data?.count ?? 0;
}

/** One approval state across clients; refreshed while requests wait and whenever the waiting count changes. */
export function useStaffRequests(state: SupportAccessApprovalState, pending: number) {
  const list = useCursorList(
    staffRequestsByState,
    { params: { approval_status: state }, query: {} },
    { refetchInterval: pending > 0 ? WAITING_REFRESH_MS : false, staleTime: 0 },
  );
  useFollowPending(pending, list.refetch);
  return list;
}
