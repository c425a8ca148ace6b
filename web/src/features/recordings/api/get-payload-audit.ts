import { useQuery } from '@tanstack/react-query';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET payloads/{ref}/audit`: plays, views, downloads, transfers and receipts. */
export const getPayloadAudit = endpointOf(payloadEndpoints, 'client.payloads.audit');

const auditOptions = (session: Session, payloadReference: string) =>
  sessionQueryOptions(session, getPayloadAudit, { params: { payload_reference: payloadReference } });

/** The audit's cache key: refreshed once a play, view or download link was given. */
export function payloadAuditQueryKey(session: Session, payloadReference: string) {
  return auditOptions(session, payloadReference).queryKey;
}

export function usePayloadAudit(payloadReference: string, options: { enabled?: boolean } = {}) {
  const { session } = useSession();
  return useQuery({ ...auditOptions(session, payloadReference), ...options });
}
