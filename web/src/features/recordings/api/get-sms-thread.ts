import { useQuery } from '@tanstack/react-query';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/** `GET devices/{ref}/sms/{thread_id}`: a device's messages of one thread, oldest first. */
export const getSmsThread = endpointOf(payloadEndpoints, 'client.devices.sms-thread');

/** The shown part of a thread: its first 100 messages. */
export const THREAD_PAGE = 100;

export function useSmsThread(deviceReference: string, threadId: string | undefined) {
  const { session } = useSession();
  return useQuery({
    ...sessionQueryOptions(session, getSmsThread, {
      params: { device_reference: deviceReference, thread_id: threadId ?? '' },
      query: { limit: String(THREAD_PAGE) },
    }),
    enabled: threadId !== undefined,
  });
}
