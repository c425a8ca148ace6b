import { callAction } from '#shared/contract/endpoint.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { implementForTenant } from '#core/http/route.ts';
import { listPayloads, listSmsThread } from './payload-lists.ts';
import { pageWithNames, withName } from './payload-names.ts';
import { holdsOfRecording, oneWithHeldBy, pageWithHeldBy } from '#core/store/held-by.ts';
import { confirmReceipts, getBulkData, getPayload, getPayloadAudit, getPayloadData, getPayloadWaveform, restorePayload } from './payload-reads.ts';

const list = endpointOf(payloadEndpoints, 'client.payloads.list');
const deviceList = endpointOf(payloadEndpoints, 'client.devices.payloads');
const userList = endpointOf(payloadEndpoints, 'client.users.payloads');
const smsThread = endpointOf(payloadEndpoints, 'client.devices.sms-thread');
const get = endpointOf(payloadEndpoints, 'client.payloads.get');
const audit = endpointOf(payloadEndpoints, 'client.payloads.audit');
const data = endpointOf(payloadEndpoints, 'client.payloads.data');
const waveform = endpointOf(payloadEndpoints, 'client.payloads.waveform');
const bulkData = endpointOf(payloadEndpoints, 'client.data.bulk');
const restore = endpointOf(payloadEndpoints, 'client.payloads.restore');
const receipts = endpointOf(payloadEndpoints, 'client.receipts.confirm');

/**
 * Lists, detail, data links, waveforms, audit, restore and receipts (the recordings' read side). A data link's
 * permission is the one its query chose (`callAction`), the same the authorizer checked.
 */
export const payloadReadRoutes = {
  // Lists and the detail name the device user and the device in words (payload-names.ts: one BatchGet per page), and
  // the active legal holds each recording falls under (#core/store/held-by.ts: one read of the tenant's holds).
  [list.id]: implementForTenant(list, async (input, deps) => shownPage(deps, input.client, await listPayloads(deps, input.client, input.access, input.query))),
  [deviceList.id]: implementForTenant(deviceList, async (input, deps) =>
    shownPage(deps, input.client, await listPayloads(deps, input.client, input.access, { ...input.query, device_reference: input.params.device_reference })),
  ),
  [userList.id]: implementForTenant(userList, async (input, deps) =>
    shownPage(deps, input.client, await listPayloads(deps, input.client, input.access, { ...input.query, device_user_reference: input.params.device_user_reference })),
  ),
  [smsThread.id]: implementForTenant(smsThread, async (input, deps) =>
    shownPage(deps, input.client, await listSmsThread(deps, input.client, input.access, input.params.device_reference, input.params.thread_id, input.query)),
  ),
  [get.id]: implementForTenant(get, async (input, deps) =>
    oneWithHeldBy(deps, input.client, await withName(deps, input.client, await getPayload(deps, input.client, input.access, input.params.payload_reference)), holdsOfRecording),
  ),
  [audit.id]: implementForTenant(audit, (input, deps) => getPayloadAudit(deps, input.client, input.access, input.params.payload_reference)),
  [data.id]: implementForTenant(data, (input, deps) =>
    getPayloadData(deps, input.client, input.access, input.principal, input.params.payload_reference, input.query.action, callAction(data, input.query)),
  ),
  [waveform.id]: implementForTenant(waveform, (input, deps) => getPayloadWaveform(deps, input.client, input.access, input.params.payload_reference)),
  [bulkData.id]: implementForTenant(bulkData, (input, deps) =>
    getBulkData(deps, input.client, input.access, input.principal, input.query.payload_references, input.query.action, callAction(bulkData, input.query)),
  ),
  [restore.id]: implementForTenant(restore, (input, deps) =>
    restorePayload(deps, input.client, input.access, input.principal, input.params.payload_reference),
  ),
  [receipts.id]: implementForTenant(receipts, (input, deps) =>
    confirmReceipts(deps, input.client, input.access, input.principal, input.body.payload_references),
  ),
};

/** A page of recordings as every list shows it: named in words, with the holds each falls under. */
async function shownPage<Page extends Parameters<typeof pageWithNames>[2]>(deps: Parameters<typeof pageWithNames>[0], client: string, page: Page) {
  return pageWithHeldBy(deps, client, await pageWithNames(deps, client, page), holdsOfRecording);
}
