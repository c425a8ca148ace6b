import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '../../../lib/endpoint-of.ts';
import { getPayload } from './get-payload.ts';
import { getPayloadAudit } from './get-payload-audit.ts';

/** `POST receipts`: confirm receipt of 1 to 100 payloads (each gets a receipt in its audit). */
export const confirmReceipts = endpointOf(payloadEndpoints, 'client.receipts.confirm');

export function useConfirmReceipts() {
  return useEndpointMutation(confirmReceipts, { invalidates: [getPayload, getPayloadAudit] });
}
