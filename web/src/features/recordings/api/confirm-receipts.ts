import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { getPayload } from './get-payload.ts';
import { getPayloadAudit } from './get-payload-audit.ts';
import { listDevicePayloads, listPayloads, listUserPayloads } from './list-payloads.ts';

/** `POST receipts`: confirm receipt of 1 to 100 payloads (each gets a receipt in its audit). */
export const confirmReceipts = endpointOf(payloadEndpoints, 'client.receipts.confirm');

/** A receipt changes the payload, its audit and every list that shows who confirmed it and when. */
export function useConfirmReceipts() {
  return useEndpointMutation(confirmReceipts, {
    invalidates: [getPayload, getPayloadAudit, listPayloads, listDevicePayloads, listUserPayloads],
  });
}
