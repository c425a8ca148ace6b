import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET payloads/{ref}`: the item's recording with its decrypted meta (an interview's, photo's or video's notes). */
export const getItemRecording = endpointOf(payloadEndpoints, 'client.payloads.get');

export function useItemRecording(payloadReference: string, enabled: boolean) {
  return useEndpointQuery(getItemRecording, { params: { payload_reference: payloadReference } }, { enabled });
}
