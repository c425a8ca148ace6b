import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRetentionDue } from '#core/store/entities/retention-due.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { raiseAlert } from '../../lambdas/alerts/raise-alert.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { uploadLogs } from '../../lambdas/device-data/uploads.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * The due markers written by the record writers themselves, on the local stack: a recording registered and processed
 * through the real pipeline gets its payload_time and processed_at markers, a receipt its receipt_confirmed_at one, a
 * restore puts them back to live, an uploaded log line and a new alert each get theirs.
 */
let tenant: RunTenant;

const markersOf = async (pk: string) => (await tenant.deps.table.query({ partition: `${pk}#RETAIN`, limit: 50 })).items.map(readRetentionDue);

beforeAll(async () => {
  tenant = await createRunTenant('marks');
  const now = new Date().toISOString();
  await tenant.deps.table.put({ ...keys.deviceUser.item(tenant.client, 'ann'), client: tenant.client, device_user_reference: 'ann', is_active: true, services: [], updated_at: now });
  await tenant.deps.table.put({ ...keys.device.item(tenant.client, 'dev-1', 'ann'), client: tenant.client, device_reference: 'dev-1', device_user_reference: 'ann', is_active: true });
}, 120_000);
afterAll(async () => tenant?.close());

describe('due markers written with their records', () => {
  it('marks a recording at registration, processing and receipt, and back to live on restore', async () => {
    const { client, deps } = tenant;
    const { kek, kekId } = await deviceKeysOf(deps, client);
    const reference = `${ulid()}M`;
    const payloadTime = '2026-01-02T03:04:05.000Z';
    const sealed = sealPayload({ kek, client, keyId: kekId, content: Buffer.from('a call'), meta: { payload_time: payloadTime, second_parties: [{ phone_number: '+447700900001', direction: 'O' }] } });
    await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
    await registerPayload(deps, { client, deviceReference: 'dev-1' }, { payload_reference: reference, payload_type: 'Call', ...sealed.registration });
    // The registration starts processing itself (the object came first); run it here only if it has not finished.
    const state = async () => (await deps.table.get(keys.payload.key(client, reference), { consistent: true }))?.payload_state;
    for (let wait = 0; wait < 100 && (await state()) !== 'Processed'; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    if ((await state()) !== 'Processed') await processPayload(deps, client, reference);
    const pk = keys.payload.key(client, reference).pk;
    const marked = await markersOf(pk);
    expect(marked.map((marker) => [marker.kind, marker.stage, marker.record_type, marker.payload_type]).sort()).toEqual([
      ['payload_time', 'LIVE', 'PayloadData', 'Call'],
      ['processed_at', 'LIVE', 'PayloadData', 'Call'],
    ]);
    expect(marked.find((marker) => marker.kind === 'payload_time')?.base_time).toBe(payloadTime);

    expect((await tenant.call('POST', '/receipts', tenant.admin, { payload_references: [reference] })).status).toBeLessThan(300);
    expect((await markersOf(pk)).map((marker) => marker.kind).sort()).toEqual(['payload_time', 'processed_at', 'receipt_confirmed_at']);

    // As the retention job leaves it when it deletes the recording: Deleted, markers in the deleted stage.
    await deps.table.update(keys.payload.key(client, reference), { set: { payload_state: 'Deleted' } });
    for (const marker of await markersOf(pk)) await deps.table.put({ ...keys.retentionDue.item(client, { record: { pk: marker.record_pk, sk: marker.record_sk }, recordType: marker.record_type, payloadType: marker.payload_type, kind: marker.kind, stage: 'DELETED', baseTime: marker.base_time }), ...marker, stage: 'DELETED' });
    expect((await tenant.call('POST', `/payloads/${reference}/restore`, tenant.admin)).status).toBe(200);
    expect((await markersOf(pk)).map((marker) => marker.stage)).toEqual(['LIVE', 'LIVE', 'LIVE']);
  });

  it('marks uploaded log lines and a new alert', async () => {
    const { client, deps } = tenant;
    await uploadLogs(deps, { client, deviceReference: 'dev-1' }, { logs: [{ log_level: 'INFO', log_datetime: '2026-01-01T00:00:00Z', log_message: 'hello' }] });
    const logs = keys.deviceLog.byDevice(client, 'dev-1');
    const [line] = (await deps.table.query({ ...logs, sort: { beginsWith: logs.sortPrefix }, limit: 1 })).items;
    expect(await markersOf(String(line?.pk)).then((markers) => markers.filter((marker) => marker.record_sk === line?.sk).map((marker) => [marker.record_type, marker.base_time]))).toEqual([
      ['DeviceData', '2026-01-01T00:00:00.000Z'],
    ]);

    const raised = await raiseAlert(deps, client, { scope: 'ops', type: 'DeviceAlert', subject: 's', key: `k-${ulid()}`, keyType: 'Transient', message: 'm', severity: 'Low' });
    const alertPk = keys.alert.key(client, raised.alert.alert_reference).pk;
    expect((await markersOf(alertPk)).map((marker) => [marker.record_type, marker.stage])).toEqual([['AlertData', 'LIVE']]);
  });
});
