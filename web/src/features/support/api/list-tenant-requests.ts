import type { SupportAccessApprovalState } from '#shared/constants/account.ts';
import { supportAccessEndpoints } from '#shared/contract/endpoints/support-access.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET supportaccess`: the requests staff made to this client, in one state or all. */
export const listTenantRequests = endpointOf(supportAccessEndpoints, 'admin.supportaccess.list');

/** New requests arrive without the user doing anything: the pending list asks again this often. */
const PENDING_REFRESH_MS = 15_000;

export function useTenantRequests(state: SupportAccessApprovalState | undefined) {
  return useCursorList(
    listTenantRequests,
    { query: state === undefined ? {} : { approval_state: state } },
    { refetchInterval: state === 'pending' ? PENDING_REFRESH_MS : false, staleTime: 0 },
  );
}
