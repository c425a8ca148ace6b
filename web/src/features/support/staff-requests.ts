import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { useCursorList, useEndpointQuery } from '../../lib/api-hooks.ts';
import { endpointOf } from '../../lib/endpoint-of.ts';

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

export function useStaffRequests(state: SupportAccessApprovalState, waiting: boolean) {
  return useCursorList(
    staffRequestsByState,
    { params: { approval_status: state }, query: {} },
    { refetchInterval: waiting ? WAITING_REFRESH_MS : false, staleTime: 0 },
  );
}

export function useClientRequests(client: string, waiting: boolean) {
  return useCursorList(clientRequests, { client, query: {} }, { refetchInterval: waiting ? WAITING_REFRESH_MS : false, staleTime: 0 });
}
