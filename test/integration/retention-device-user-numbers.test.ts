import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import { phoneNumberToItem } from '#core/store/entities/phone-number.ts';
import { keys } from '#core/store/keys.ts';
import { authenticateDevice } from '../../lambdas/device-api/authenticate-device.ts';
import { sealDeviceReference } from '../../lambdas/device-crypto/device-keys.ts';
import { offboardDeviceUser, onboardDeviceUser } from '../../lambdas/devices/device-users/device-users.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Destroying an offboarded device user also deletes the phone-number items that still name the person, on the local
 * stack: those device authentication wrote (found by the person's numbers list) and one written before that list
 * existed (found through the person's device). A number device authentication moved to another person stays theirs,
 * and another tenant's items under the same numbers and reference stay too. Afterwards device authentication no
 * longer resolves the person by those numbers.
 */
let tenant: RunTenant;
let other: RunTenant;
/** The leaver's two devices in the first tenant (deactivated before the offboarding). */
let leaverDevices: string[] = [];

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const userRequest = (reference: string) => ({ group: 'team', services: ['calls' as const], expected_device_count: 1, email: `${reference}@example.com`, first_name: 'Pat', surname: reference, is_active: true });

const run = String(Date.now()).slice(-7);
/** The leaver's two numbers, a third from before the numbers list, one later taken by the stayer, and the stayer's own. */
const number = { first: `+4477001${run}`, second: `+4477002${run}`, old: `+4477003${run}`, moved: `+4477004${run}`, stayer: `+4477005${run}` };

const manyNumbers = Array.from({ length: 130 }, (_, index) => `+4478${String(index).padStart(3, '0')}${run}`);

const imei = () => String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)).slice(0, 15);

async function authenticate(one: RunTenant, deviceReference: string, phoneNumbers: string[]) {
  const sealed = await sealDeviceReference(one.deps, one.client, deviceReference);
  return authenticateDevice(one.deps, { ulid_encrypted: sealed, phone_numbers: phoneNumbers, imeis: [imei()] } as Parameters<typeof authenticateDevice>[1]);
}

async function deactivate(deps: Dependencies, client: string, deviceReference: string) {
  await deps.table.update(keys.device.key(client, deviceReference), { set: { is_deactivated: true, deactivation_date: new Date().toISOString() } });
}

const numberItem = (one: RunTenant, phone: string) => one.deps.table.get(keys.phoneNumber.key(one.client, phone), { consistent: true });

const listed = async (one: RunTenant, reference: string) =>
  (await one.deps.table.query(keys.phoneNumber.listByDeviceUser(one.client, reference))).items.map((item) => item.phone_number).sort();

async function runToEnd(deps: Dependencies, input: Record<string, unknown>): Promise<void> {
  let next: Record<string, unknown> | undefined = input;
  while (next !== undefined) {
    const starts: Array<Record<string, unknown>> = [];
    await retentionJob({ ...deps, jobs: { start: async (_job, more) => void starts.push(more) } }, next);
    next = starts[0];
  }
}

/** A person whose device reported the leaver's numbers: `leaver` in both tenants, by the same reference and numbers. */
async function equipLeaver(one: RunTenant): Promise<string[]> {
  await one.deps.table.put({ ...keys.group.item(one.client, 'team'), client: one.client, group_reference: 'team', tags: [], updated_at: new Date().toISOString() });
  await onboardDeviceUser(adminCaller(one.deps, one.client, 'deviceUsers:Create'), 'leaver', userRequest('leaver'));
  // What an administrator or an import records first, so the phone's first authentication finds its user.
  await one.deps.table.put(phoneNumberToItem(one.client, { client: one.client, phone_number: number.first, device_user_reference: 'leaver' }));
  const phone = ulid();
  await authenticate(one, phone, [number.first, number.second, number.moved]);
  const older = ulid();
  await authenticate(one, older, [number.first, number.old]);
  return [phone, older];
}

beforeAll(async () => {
  tenant = await createRunTenant('dunum');
  other = await createRunTenant('dunumb');
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, { DeviceUserData: { delete_after_days: 1, destroy_after_days: 1000 } })).status).toBe(200);
  const { client, deps } = tenant;

  const devices = await equipLeaver(tenant);
  leaverDevices = devices;
  // An item from before the numbers list: written without the index key (as authentication used to).
  await deps.table.put({ ...keys.phoneNumber.item(client, number.old), client, phone_number: number.old, device_user_reference: 'leaver', device_reference: devices[1] });

  // The stayer's phone reports its own number and one the leaver had: authentication moves that number to the stayer.
  await onboardDeviceUser(adminCaller(deps, client, 'deviceUsers:Create'), 'stayer', userRequest('stayer'));
  await deps.table.put(phoneNumberToItem(client, { client, phone_number: number.stayer, device_user_reference: 'stayer' }));
  await authenticate(tenant, ulid(), [number.stayer, number.moved]);

  for (const device of devices) await deactivate(deps, client, device);
  await offboardDeviceUser(adminCaller(deps, client, 'deviceUsers:Delete'), 'leaver');

  // A person with more numbers than the destruction's transaction has room for.
  await onboardDeviceUser(adminCaller(deps, client, 'deviceUsers:Create'), 'collector', userRequest('collector'));
  for (const phone of manyNumbers) await deps.table.put(phoneNumberToItem(client, { client, phone_number: phone, device_user_reference: 'collector' }));
  await offboardDeviceUser(adminCaller(deps, client, 'deviceUsers:Delete'), 'collector');

  // The other tenant's leaver stays onboarded, under the same reference and numbers.
  await equipLeaver(other);
}, 120_000);

afterAll(async () => {
  await Promise.all([tenant?.close(), other?.close()]);
});

describe('destroying a device user removes the phone numbers that still name them', () => {
  it('lists a person\'s numbers by Query, and moves a number\'s index key with the number', async () => {
    expect(await listed(tenant, 'leaver')).toEqual([number.first, number.second].sort());
    expect(await listed(tenant, 'stayer')).toEqual([number.moved, number.stayer].sort());
    expect(await numberItem(tenant, number.old)).toMatchObject({ device_user_reference: 'leaver' });
    expect((await numberItem(tenant, number.old))?.gsi1pk).toBeUndefined();
  });

  it('deletes the numbers with the person\'s fields at destruction, not before', async () => {
    const { client, deps } = tenant;
    await runToEnd(deps, { client, now: at(10) });
    expect(await deps.table.get(keys.deviceUser.key(client, 'leaver'), { consistent: true })).toMatchObject({ retention_state: 'Deleted' });
    // Deleted only marks the user: the numbers still resolve, and the devices still carry the copies of the person.
    for (const phone of [number.first, number.second, number.old]) expect(await numberItem(tenant, phone)).toMatchObject({ device_user_reference: 'leaver' });
    const device = (reference: string) => deps.table.get(keys.device.key(client, reference), { consistent: true });
    for (const reference of leaverDevices) expect(await device(reference)).toMatchObject({ email: 'leaver@example.com', first_name: 'Pat', surname: 'leaver' });

    await runToEnd(deps, { client, now: at(2000) });
    const user = await deps.table.get(keys.deviceUser.key(client, 'leaver'), { consistent: true });
    expect(user).toMatchObject({ retention_state: 'Destroyed' });
    expect(user?.email).toBeUndefined();
    for (const phone of [number.first, number.second, number.old]) expect(await numberItem(tenant, phone)).toBeUndefined();
    expect(await listed(tenant, 'leaver')).toEqual([]);
    // The copies device authentication wrote onto the person's devices go too; the devices stay, still naming them.
    for (const reference of leaverDevices) {
      const after = await device(reference);
      expect(after).toMatchObject({ device_user_reference: 'leaver' });
      expect([after?.email, after?.first_name, after?.surname]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('deletes them all when there are more than one transaction holds', async () => {
    expect(await tenant.deps.table.get(keys.deviceUser.key(tenant.client, 'collector'), { consistent: true })).toMatchObject({ retention_state: 'Destroyed' });
    const left = await tenant.deps.table.batchGet(manyNumbers.map((phone) => keys.phoneNumber.key(tenant.client, phone)), { consistent: true });
    expect(left).toEqual([]);
  });

  it('no longer resolves the destroyed person by those numbers', async () => {
    const phone = ulid();
    const answer = await authenticate(tenant, phone, [number.first, number.second]);
    expect(answer.enabled_services).toEqual([]);
    const device = await tenant.deps.table.get(keys.device.key(tenant.client, phone), { consistent: true });
    expect(device).toBeDefined();
    expect(device?.device_user_reference).toBeUndefined();
  });

  it('leaves a number since taken by someone else with them', async () => {
    expect(await numberItem(tenant, number.moved)).toMatchObject({ device_user_reference: 'stayer' });
    expect(await numberItem(tenant, number.stayer)).toMatchObject({ device_user_reference: 'stayer' });
    expect(await listed(tenant, 'stayer')).toEqual([number.moved, number.stayer].sort());
  });

  it('leaves another tenant\'s numbers alone, under the same reference and numbers', async () => {
    for (const phone of [number.first, number.second, number.moved]) expect(await numberItem(other, phone)).toMatchObject({ device_user_reference: 'leaver' });
    expect(await listed(other, 'leaver')).toEqual([number.first, number.moved, number.old, number.second].sort());
    expect((await other.deps.table.get(keys.deviceUser.key(other.client, 'leaver'), { consistent: true }))?.email).toBe('leaver@example.com');
  });
});
