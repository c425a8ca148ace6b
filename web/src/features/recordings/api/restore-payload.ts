import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { getPayload } from './get-payload.ts';

/** `POST payloads/{ref}/restore`: a logically deleted payload becomes Processed again. */
export const restorePayload = endpointOf(payloadEndpoints, 'client.payloads.restore');

export function useRestorePayload() {
  return useEndpointMutation(restorePayload, { invalidates: [getPayload] });
}
