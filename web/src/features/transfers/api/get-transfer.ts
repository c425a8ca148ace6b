import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { PENDING_POLL_MS, sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';
import { transferMoving } from './list-transfers.ts';

/** `GET transfers/{transfer_id}`: one transfer, its progress and its first files. */
export const getTransfer = endpointOf(transferEndpoints, 'client.transfers.get');

export function transferQueryOptions(session: Session, transferId: string) {
  return sessionQueryOptions(session, getTransfer, { params: { transfer_id: transferId } });
}

/**
 * One transfer, refreshed while it is still moving: the one its route's loader ensured (ensureQueryData with the same
 * options); suspends while it is not there.
 */
export function useTransfer(transferId: string) {
  const { session } = useSession();
  return useSuspenseQuery({
    ...transferQueryOptions(session, transferId),
    refetchInterval: (query) => (query.state.data !== undefined && transferMoving(query.state.data) ? PENDING_POLL_MS : false),
    staleTime: 0,
  });
}
