import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { useEffect, useRef } from 'react';
import { useCursorList, useEndpointQuery } from '../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET /supportaccess/{approval_status}` (staff): requests across clients in one state. */
export const staffRequestsByState = endpointOf(supportAccessEndpoints, 'internal.supportaccess.by-status');
/** `GET /clients/{client}/supportaccess` (staff): the requests made to one client. */
export const clientRequests = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.list');

/** While any request waits for a client's decision the lists ask again this often, so an approval shows by itself. */
export const WAITING_REFRESH_MS = 10_000;

/** How many of the staff's requests wait for a decision; asked again while there are some. */
export function usePendingCount() {
  const query = useEndpointQuery(
    staffRequestsByState,
    { params: { approval_status: 'pending' }, query: { result_type: 'total' } },
    { refetchInterval: (current) => ((current.state.data?.count ?? 0) > 0 ? WAITING_REFRESH_MS : false), staleTime: 0 },
  );
  return query.data?.count ?? 0;
}

/**
 * Refetches a list when the number of waiting requests changes: a client's decision takes a request out of
 * `pending`, and the list shown must follow even when its own timer stops with the last waiting request.
 */
function useFollowPending(pending: number, refetch: () => unknown): void {
  const previous = useRef(pending);
  useEffect(() => {
    if (previous.current === pending) return;
    previous.current = pending;
    void refetch();
  }, [pending, refetch]);
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

/** The requests made to one client; refreshed like useStaffRequests. */
export function useClientRequests(client: string, pending: number) {
  const list = useCursorList(clientRequests, { client, query: {} }, { refetchInterval: pending > 0 ? WAITING_REFRESH_MS : false, staleTime: 0 });
  useFollowPending(pending, list.refetch);
  return list;
}
