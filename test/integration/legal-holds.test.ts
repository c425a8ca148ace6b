import { DeleteObjectCommand, GetObjectLegalHoldCommand, S3Client } from '@aws-sdk/client-s3';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/device-keys.ts';
import { sealPayload } from '../../lambdas/device-crypto/payload-crypto.ts';
import { processPayload } from '../../lambdas/payloads/processing/processing.ts';
import { registerPayload } from '../../lambdas/payloads/processing/registration.ts';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/dynamodb.ts';
import { PROCESSED_BUCKET } from '../../scripts/local/stack.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { signIn } from './support/sign-in.ts';
import { stack } from './support/stack.ts';

/**
 * `GET account/legal_holds`, `PUT, DELETE account/legal_holds/{target_type}/{target}` on the local stack, in a tenant
 * of this run. The recordings are fixtures written with the key builders and their processed objects put through the
 * real BlobStore (the Object Lock proxy in front of s3rver); what each object's legal hold is, is read back with the
 * AWS SDK's GetObjectLegalHold, as S3 would answer it.
 *
 * Fleet: device user `alice` recorded on `dev-old` (p1) and on `dev-shared` (p2), and one recording is still on its
 * way (p3, no object yet). `dev-shared` is now held by `bob`, who recorded p4 on it. So a hold on alice covers p1 and
 * p2; a hold on bob covers p4 and, as his device's data, p2 too.
 */
let tenant: RunTenant;
let otherTenant: string;
let s3: S3Client;
const alice = 'alice';
const bob = 'bob';
const officer = 'officer-1';
const ref = (name: string) => `${ulid()}${name}`.slice(0, 36);
const p1 = ref('P1');
const p2 = ref('P2');
const p3 = ref('P3');
const p4 = ref('P4');

async function objectHold(reference: string): Promise<string | undefined> {
  try {
    const answer = await s3.send(new GetObjectLegalHoldCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference) }));
    return answer.LegalHold?.Status;
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchObjectLockConfiguration') return 'never set';
    throw error;
  }
}
const holds = async (...references: string[]) => Promise.all(references.map(objectHold));

async function deleteObject(reference: string): Promise<number> {
  try {
    await s3.send(new DeleteObjectCommand({ Bucket: PROCESSED_BUCKET, Key: payloadObjectKey(tenant.client, reference) }));
    return 204;
  } catch (error) {
    return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
  }
}

beforeAll(async () => {
  tenant = await createRunTenant('holds');
  const { client, deps } = tenant;
  otherTenant = (await signIn('admin@acme.test')).id_token;
  s3 = new S3Client({
    endpoint: stack().s3Endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const now = new Date().toISOString();
  for (const user of [alice, bob]) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: now });
  }
  await deps.table.put({ ...keys.device.item(client, 'dev-old'), client, device_reference: 'dev-old' });
  await deps.table.put({ ...keys.device.item(client, 'dev-shared', bob), client, device_reference: 'dev-shared', device_user_reference: bob });
  await deps.table.put(portalUserItem({ sub: officer, email: 'officer@example.com', client, roles: ['admin'] }, now, 'seed') as never);

  const recording = async (reference: string, device: string, user: string, state: string) => {
    const time = now;
    await deps.table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: device, deviceUserReference: user }),
      client,
      payload_reference: reference,
      payload_type: 'Call',
      payload_state: state,
      device_reference: device,
      device_user_reference: user,
      payload_time: time,
      updated_at: now,
    });
    if (state === 'Processed') await deps.blobs.put('processed', payloadObjectKey(client, reference), Buffer.from(`recording ${reference}`));
  };
  await recording(p1, 'dev-old', alice, 'Processed');
  await recording(p2, 'dev-shared', alice, 'Processed');
  await recording(p3, 'dev-old', alice, 'Uploaded');
  await recording(p4, 'dev-shared', bob, 'Processed');
});
afterAll(async () => {
  s3.destroy();
  await tenant.close();
});

describe('legal holds', () => {
  it('places a hold on a device user: recorded with who and when, and every covered object held', async () => {
    expect(await holds(p1, p2, p4)).toEqual(['never set', 'never set', 'never set']);
    const placed = await tenant.call('PUT', `/account/legal_holds/DeviceUser/${alice}`, tenant.admin, {});
    expect(placed.status).toBe(200);
    const hold = LegalHold.parse(placed.body);
    expect(hold).toMatchObject({ target: alice, target_type: 'DeviceUser', is_active: true, updated_by: 'app:admin-app' });
    expect(hold.created_at).toBe(hold.updated_at);
    expect(await holds(p1, p2, p4)).toEqual(['ON', 'ON', 'never set']);
    // The adapter reads the same: on, never set (off), and no object at all.
    const adapterHold = (reference: string) => tenant.deps.blobs.getLegalHold('processed', payloadObjectKey(tenant.client, reference));
    expect([await adapterHold(p1), await adapterHold(p4), await adapterHold(p3)]).toEqual([true, false, undefined]);
    expect(await tenant.deps.blobs.setLegalHold('processed', payloadObjectKey(tenant.client, p3), true)).toBe(false);
    // What a hold is for: the object cannot be deleted.
    expect(await deleteObject(p1)).toBe(403);

    // Placing it again keeps when it was first placed.
    const again = await tenant.call('PUT', `/account/legal_holds/DeviceUser/${alice}`, tenant.admin, { is_active: true });
    expect(again.body.created_at).toBe(hold.created_at);
  });

  it('keeps an object held while another hold covers it, and frees it with the last', async () => {
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${bob}`, tenant.admin, {})).status).toBe(200);
    expect(await holds(p1, p2, p4)).toEqual(['ON', 'ON', 'ON']);

    const released = await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${alice}`, tenant.admin);
    expect(released.status).toBe(200);
    // Released by the second admin's approval (four eyes): the release names them.
    expect(released.body).toMatchObject({ target: alice, is_active: false, updated_by: 'app:second-admin-app' });
    // p2 is alice's, but on bob's device: bob's hold keeps it.
    expect(await holds(p1, p2, p4)).toEqual(['OFF', 'ON', 'ON']);

    expect((await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${bob}`, tenant.admin)).status).toBe(200);
    expect(await holds(p1, p2, p4)).toEqual(['OFF', 'OFF', 'OFF']);
    expect(await deleteObject(p4)).toBe(204);

    // The user activity trail holds each placing and release: who, what, on whom, with what answer.
    const trail = await tenant.deps.table.query({ ...keys.userActivity.list(tenant.client), limit: 1000 });
    const calls = trail.items
      .filter((record) => String(record.action).startsWith('legalHolds:') && JSON.stringify(record.parameters ?? {}).includes(bob))
      .map((record) => `${String(record.user_id)} ${String(record.action)} ${String(record.status_code)}`);
    // The release was requested (202, pending) and applied by the second admin's approval (an `approvals:Approve` record).
    expect(calls.sort()).toEqual(['app:admin-app legalHolds:Release 202', 'app:admin-app legalHolds:Update 200'].sort());
  });

  it('holds a recording processed while its holder is held, through the real pipeline and the S3 adapter', async () => {
    const { client, deps } = tenant;
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${bob}`, tenant.admin, {})).status).toBe(200);
    const { kek, kekId } = await deviceKeysOf(deps, client);
    const reference = ref('LATE');
    const sealed = sealPayload({ kek, client, keyId: kekId, content: Buffer.from('a call made during the hold'), meta: { payload_time: new Date().toISOString(), second_parties: [{ phone_number: '+447700900001', direction: 'O' }] } });
    await deps.blobs.put('raw', payloadObjectKey(client, reference), sealed.ciphertext);
    await registerPayload(deps, { client, deviceReference: 'dev-shared' }, { payload_reference: reference, payload_type: 'Call', ...sealed.registration });
    // The registration may already have started processing (object first); either way it ends Processed.
    await processPayload(deps, client, reference);
    expect((await deps.table.get(keys.payload.key(client, reference)))?.payload_state).toBe('Processed');
    expect(await objectHold(reference)).toBe('ON');
    expect(await deleteObject(reference)).toBe(403);

    expect((await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${bob}`, tenant.admin)).status).toBe(200);
    expect(await objectHold(reference)).toBe('OFF');
  });

  it('holds a portal user, lists holds with filters and pages, and keeps released ones', async () => {
    const placed = await tenant.call('PUT', `/account/legal_holds/PortalUser/${officer}`, tenant.admin, {});
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ target: officer, target_type: 'PortalUser', is_active: true });

    const all = await tenant.call('GET', '/account/legal_holds', tenant.admin);
    expect(all.status).toBe(200);
    const rows = (all.body.data as Array<Record<string, unknown>>).map((row) => `${String(row.target_type)}/${String(row.target)}:${String(row.is_active)}`);
    expect(rows.sort()).toEqual([`DeviceUser/${alice}:false`, `DeviceUser/${bob}:false`, `PortalUser/${officer}:true`]);
    const active = await tenant.call('GET', '/account/legal_holds?active_only=true', tenant.admin);
    expect((active.body.data as unknown[]).length).toBe(1);
    expect((await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser&result_type=total', tenant.admin)).body).toEqual({ count: 2 });

    const first = await tenant.call('GET', '/account/legal_holds?limit=2', tenant.admin);
    expect(first.body.count).toBe(2);
    const rest = await tenant.call('GET', `/account/legal_holds?limit=2&last_key=${encodeURIComponent(String(first.body.last_key))}`, tenant.admin);
    expect(rest.body.count).toBe(1);
    expect(rest.body.last_key).toBeUndefined();
    // A cursor is bound to its list.
    expect((await tenant.call('GET', `/account/legal_holds?limit=2&active_only=true&last_key=${encodeURIComponent(String(first.body.last_key))}`, tenant.admin)).status).toBe(400);

    // PUT with is_active false releases like DELETE.
    expect((await tenant.applied('PUT', `/account/legal_holds/PortalUser/${officer}`, tenant.admin, { is_active: false })).body).toMatchObject({ is_active: false });
  });

  it('answers 404 for a target the tenant does not have (another tenant’s included) and for a hold never placed', async () => {
    const missing = await tenant.call('PUT', '/account/legal_holds/DeviceUser/nobody-here', tenant.admin, {});
    expect(missing.status).toBe(404);
    expect(String(missing.body.message)).toBe('Device user nobody-here not found');
    // `demo-admin` is a portal user of demo, not of this tenant.
    expect((await tenant.call('PUT', '/account/legal_holds/PortalUser/demo-admin', tenant.admin, {})).status).toBe(404);
    // A device user is not a portal user.
    expect((await tenant.call('PUT', `/account/legal_holds/PortalUser/${alice}`, tenant.admin, {})).status).toBe(404);
    expect((await tenant.applied('DELETE', '/account/legal_holds/PortalUser/never-held', tenant.admin)).status).toBe(404);
  });

  it('lets a role limited to a group hold, release and list only the device users of its group', async () => {
    const { client, deps } = tenant;
    const now = new Date().toISOString();
    for (const group of ['north', 'south']) await deps.table.put({ ...keys.group.item(client, group), client, group_reference: group, tags: [], updated_at: now });
    for (const [user, group] of [['nora', 'north'], ['sam', 'south']] as const) {
      await deps.table.put({ ...keys.deviceUser.item(client, user, group), client, device_user_reference: user, group, is_active: true, services: [], updated_at: now });
    }
    await deps.table.put({
      ...keys.role.item(client, 'north-holds'),
      client,
      role_reference: 'north-holds',
      permissions: [{ actions_matching: 'legalHolds:*', is_denied: false, is_regex: false, conditions: [{ names_matching: 'north', is_denied: false, is_regex: false }] }],
      payload_types: [],
      cidr_ranges: [],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      updated_at: now,
    });
    const north = await tenant.tokenFor('north-holds');
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/nora', north, {})).status).toBe(200);
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/sam', north, {})).status).toBe(404);
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/sam', tenant.admin, {})).status).toBe(200);
    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/sam', north)).status).toBe(404);
    const listed = await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser&active_only=true', north);
    expect((listed.body.data as Array<{ target: string }>).map((hold) => hold.target)).toEqual(['nora']);
    expect((await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser&active_only=true&result_type=total', north)).body).toEqual({ count: 1 });
    // Tidy for the other tests of this file: only the holds they placed.
    for (const user of ['nora', 'sam']) expect((await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${user}`, tenant.admin)).status).toBe(200);
  });

  it('refuses hostile input with 400 lines, another tenant with 403, and a role without the action with 403', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['PUT', '/account/legal_holds/Robot/alice', {}, /^params\.target_type: /],
      ['PUT', '/account/legal_holds/DeviceUser/ab', {}, /^params\.target: /],
      ['PUT', `/account/legal_holds/DeviceUser/${'x'.repeat(300)}`, {}, /^params\.target: /],
      ['PUT', `/account/legal_holds/DeviceUser/${alice}`, { is_active: 'yes' }, /^body\.is_active: /],
      ['PUT', `/account/legal_holds/DeviceUser/${alice}`, { is_active: true, target: 'bob' }, /^body/],
      ['GET', '/account/legal_holds?active_only=maybe', undefined, /^query\.active_only: /],
      ['GET', '/account/legal_holds?target_type=Robot', undefined, /^query\.target_type: /],
      ['GET', '/account/legal_holds?last_key=forged', undefined, /^query\.last_key: Invalid cursor/],
    ];
    for (const [method, path, body, line] of cases) {
      const answer = await tenant.call(method, path, tenant.admin, body);
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(String(answer.body.message).split('\n').some((text) => line.test(text)), String(answer.body.message)).toBe(true);
    }

    expect((await tenant.call('GET', '/account/legal_holds', otherTenant)).status).toBe(403);
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${alice}`, otherTenant, {})).status).toBe(403);
    expect((await tenant.call('GET', '/account/legal_holds', tenant.reviewer)).status).toBe(200);
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${alice}`, tenant.reviewer, {})).status).toBe(403);
    expect((await tenant.applied('DELETE', `/account/legal_holds/DeviceUser/${bob}`, tenant.reviewer)).status).toBe(403);
    expect(await holds(p1, p2)).toEqual(['OFF', 'OFF']);
  });
});

