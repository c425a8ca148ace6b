import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET activities/chain`: how far each audit trail's hash chain is linked, what waits, the last signed checkpoint. */
export const getChainState = endpointOf(auditEndpoints, 'getActivityChainState');

/** Linking runs off the request path: the panel asks again this often so "waiting" drains by itself. */
const CHAIN_REFRESH_MS = 30_000;

export function useChainState(enabled: boolean) {
  return useEndpointQuery(getChainState, {}, { enabled, refetchInterval: CHAIN_REFRESH_MS });
}
