import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import type { TenantCaller } from '#core/http/caller.ts';
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
 * permission is the one its query chose (`callAction`, the caller's action), the same the authorizer checked.
 */
export const payloadReadRoutes = {
  // Lists and the detail name the device user and the device in words (payload-names.ts: one BatchGet per page), and
  // the active legal holds each recording falls under (#core/store/held-by.ts: one read of the tenant's holds).
  [list.id]: implementForTenant(list, async ({ caller, query }) => shownPage(caller, await listPayloads(caller, query))),
  [deviceList.id]: implementForTenant(deviceList, async ({ caller, query, params }) =>
    shownPage(caller, await listPayloads(caller, { ...query, device_reference: params.device_reference })),
  ),
  [userList.id]: implementForTenant(userList, async ({ caller, query, params }) =>
    shownPage(caller, await listPayloads(caller, { ...query, device_user_reference: params.device_user_reference })),
  ),
  [smsThread.id]: implementForTenant(smsThread, async ({ caller, query, params }) =>
    shownPage(caller, await listSmsThread(caller, params.device_reference, params.thread_id, query)),
  ),
  [get.id]: implementForTenant(get, async ({ caller, params }) =>
    oneWithHeldBy(caller.deps, caller.tenant, await withName(caller.deps, caller.tenant, await getPayload(caller, params.payload_reference)), holdsOfRecording),
  ),
  [audit.id]: implementForTenant(audit, ({ caller, params }) => getPayloadAudit(caller, params.payload_reference)),
  [data.id]: implementForTenant(data, ({ caller, params, query }) => getPayloadData(caller, params.payload_reference, query.action)),
  [waveform.id]: implementForTenant(waveform, ({ caller, params }) => getPayloadWaveform(caller, params.payload_reference)),
  [bulkData.id]: implementForTenant(bulkData, ({ caller, query }) => getBulkData(caller, query.payload_references, query.action)),
  [restore.id]: implementForTenant(restore, ({ caller, params }) => restorePayload(caller, params.payload_reference)),
  [receipts.id]: implementForTenant(receipts, ({ caller, body }) => confirmReceipts(caller, body.payload_references)),
};

/** A page of recordings as every list shows it: named in words, with the holds each falls under. */
async function shownPage<Page extends Parameters<typeof pageWithNames>[2]>({ deps, tenant }: TenantCaller, page: Page) {
  return pageWithHeldBy(deps, tenant, await pageWithNames(deps, tenant, page), holdsOfRecording);
}
