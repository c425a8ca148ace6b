import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { listPayloads, listSmsThread } from './payload-lists.ts';
import { confirmReceipts, getBulkData, getPayload, getPayloadAudit, getPayloadData, restorePayload } from './payload-reads.ts';

/** The group's read, data, restore and receipt endpoints, in the contract's order (checked by id at load). */
const [list, deviceList, userList, smsThread, get, audit, data, bulkData, restore, receipts] = payloadEndpoints;

const expected: Array<[{ id: string }, string]> = [
  [list, 'client.payloads.list'],
  [deviceList, 'client.devices.payloads'],
  [userList, 'client.users.payloads'],
  [smsThread, 'client.devices.sms-thread'],
  [get, 'client.payloads.get'],
  [audit, 'client.payloads.audit'],
  [data, 'client.payloads.data'],
  [bulkData, 'client.data.bulk'],
  [restore, 'client.payloads.restore'],
  [receipts, 'client.receipts.confirm'],
];
for (const [endpoint, id] of expected) {
  if (endpoint.id !== id) throw new Error(`payloads read routes expected ${id}, found ${endpoint.id}`);
}

/** Every endpoint of the group has `{client}` in its path; the router checked it against the caller's tenant. */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  if (input.client === undefined) throw new Error('payloads routes need the path client');
  return input.client;
}

/** Lists, detail, data links, audit, restore and receipts (the recordings' read side). */
export const payloadReadRoutes = {
  [list.id]: implement(list, (input, deps) => listPayloads(deps, clientOf(input), input.access, input.query)),
  [deviceList.id]: implement(deviceList, (input, deps) =>
    listPayloads(deps, clientOf(input), input.access, { ...input.query, device_reference: input.params.device_reference }),
  ),
  [userList.id]: implement(userList, (input, deps) =>
    listPayloads(deps, clientOf(input), input.access, { ...input.query, device_user_reference: input.params.device_user_reference }),
  ),
  [smsThread.id]: implement(smsThread, (input, deps) =>
    listSmsThread(deps, clientOf(input), input.access, input.params.device_reference, input.params.thread_id, input.query),
  ),
  [get.id]: implement(get, (input, deps) => getPayload(deps, clientOf(input), input.access, input.params.payload_reference)),
  [audit.id]: implement(audit, (input, deps) => getPayloadAudit(deps, clientOf(input), input.access, input.params.payload_reference)),
  [data.id]: implement(data, (input, deps) =>
    getPayloadData(deps, clientOf(input), input.access, input.principal, input.params.payload_reference, input.query.action),
  ),
  [bulkData.id]: implement(bulkData, (input, deps) =>
    getBulkData(deps, clientOf(input), input.access, input.principal, input.query.payload_references, input.query.action),
  ),
  [restore.id]: implement(restore, (input, deps) =>
    restorePayload(deps, clientOf(input), input.access, input.principal, input.params.payload_reference),
  ),
  [receipts.id]: implement(receipts, (input, deps) =>
    confirmReceipts(deps, clientOf(input), input.access, input.principal, input.body.payload_references),
  ),
};
