import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { useFollowPending, WAITING_REFRESH_MS } from './follow-pending.ts';

/** `GET /clients/{client}/supportaccess` (staff): the requests made to one client. */
export const clientRequests = endpointOf(supportAccessEndpoints, 'internal.clients.supportaccess.list');

/** The requests made to one client; refreshed like useStaffRequests. */
export function useClientRequests(client: string, pending: number) {
  const list = useCursorList(clientRequests, { client, query: {} }, { refetchInterval: pending > 0 ? WAITING_REFRESH_MS : false, staleTime: 0 });
  useFollowPending(pending, list.refetch);
  return list;
}
