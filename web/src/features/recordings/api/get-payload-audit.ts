import { useQuery } from '@tanstack/react-query';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../session/session-context.tsx';

/** `GET payloads/{ref}/audit`: plays, downloads, transfers and receipts. */
export const getPayloadAudit = endpointOf(payloadEndpoints, 'client.payloads.audit');

export function usePayloadAudit(payloadReference: string, options: { enabled?: boolean } = {}) {
  const { session } = useSession();
  return useQuery({ ...sessionQueryOptions(session, getPayloadAudit, { params: { payload_reference: payloadReference } }), ...options });
}
