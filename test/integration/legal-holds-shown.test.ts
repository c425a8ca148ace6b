import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { heldByIndex } from '#core/store/held-by.ts';
import { keys } from '#core/store/keys.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * A hold shows where the held thing appears: the held device user's own record, the device they hold and its
 * recordings, and the recordings attributed to them, each carry `held_by` naming the hold, on the detail and in every
 * list; nobody and nothing else does, and another tenant with the same references sees no hold. Fleet: alice holds
 * d-alice and is held; bob holds d-bob and is not; one of bob's recordings was made on alice's device (held by the
 * device's holder); one of alice's on bob's device (held as hers).
 */
let tenant: RunTenant;
let other: RunTenant;
/** Portal sign-ins of each tenant's admin (device users and devices are the portal's admin surface). */
const portal = new Map<string, string>();
const HELD = [{ target_type: 'DeviceUser', target: 'alice' }];
const ALICE_ON_HER_DEVICE = 'P-SHOWN-ALICE-000000000000001';
const BOB_ON_ALICES_DEVICE = 'P-SHOWN-BOB-ON-ALICE-00000001';
const ALICE_ON_BOBS_DEVICE = 'P-SHOWN-ALICE-ON-BOB-00000001';
const BOB_ON_HIS_DEVICE = 'P-SHOWN-BOB-00000000000000001';

async function seed(run: RunTenant) {
  const { client, deps } = run;
  const now = new Date().toISOString();
  for (const user of ['alice', 'bob']) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: ['calls'], updated_at: now });
    await deps.table.put({ ...keys.device.item(client, `d-${user}`, user), client, device_reference: `d-${user}`, device_user_reference: user, is_active: true, updated_at: now });
  }
  const payload = async (reference: string, device: string, user: string, minutes: number) => {
    const time = new Date(Date.now() - minutes * 60_000).toISOString();
    await deps.table.put({
      ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: device, deviceUserReference: user }),
      client,
      payload_reference: reference,
      payload_type: 'Call',
      payload_state: 'Processed',
      device_reference: device,
      device_user_reference: user,
      payload_time: time,
    });
  };
  await payload(ALICE_ON_HER_DEVICE, 'd-alice', 'alice', 1);
  await payload(BOB_ON_ALICES_DEVICE, 'd-alice', 'bob', 2);
  await payload(ALICE_ON_BOBS_DEVICE, 'd-bob', 'alice', 3);
  await payload(BOB_ON_HIS_DEVICE, 'd-bob', 'bob', 4);
}

beforeAll(async () => {
  tenant = await createRunTenant('shown');
  other = await createRunTenant('shownx');
  await seed(tenant);
  await seed(other);
  for (const run of [tenant, other]) portal.set(run.client, await portalTokenFor(run.client, { sub: `${run.client}-admin`, email: `admin@${run.client}.test`, groups: ['admin'] }));
  expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/alice', tenant.admin, {})).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

const get = async (run: RunTenant, path: string) => {
  const answer = await run.call('GET', path, portal.get(run.client) ?? run.admin);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
};
type Row = Record<string, unknown> & { held_by?: unknown };
const rows = async (run: RunTenant, path: string, key: string) => Object.fromEntries(((await get(run, path)).data as Row[]).map((row) => [row[key] as string, row.held_by]));

describe('a hold shows where the held thing appears', () => {
  it('the held device user, on their page and in the list; the other is not held', async () => {
    expect((await get(tenant, '/users/alice')).held_by).toEqual(HELD);
    expect((await get(tenant, '/users/bob')).held_by).toBeUndefined();
    expect(await rows(tenant, '/users', 'device_user_reference')).toEqual({ alice: HELD, bob: undefined });
  });

  it('the device they hold, on its page, in the devices list and in their devices', async () => {
    expect((await get(tenant, '/devices/d-alice')).held_by).toEqual(HELD);
    expect((await get(tenant, '/devices/d-bob')).held_by).toBeUndefined();
    expect(await rows(tenant, '/devices', 'device_reference')).toEqual({ 'd-alice': HELD, 'd-bob': undefined });
    expect(await rows(tenant, '/users/alice/devices', 'device_reference')).toEqual({ 'd-alice': HELD });
  });

  it('their recordings and their device’s, on the detail and in every list', async () => {
    const expected = { [ALICE_ON_HER_DEVICE]: HELD, [BOB_ON_ALICES_DEVICE]: HELD, [ALICE_ON_BOBS_DEVICE]: HELD, [BOB_ON_HIS_DEVICE]: undefined };
    for (const [reference, held] of Object.entries(expected)) expect((await get(tenant, `/payloads/${reference}`)).held_by).toEqual(held);
    expect(await rows(tenant, '/payloads', 'payload_reference')).toEqual(expected);
    expect(await rows(tenant, '/devices/d-bob/payloads', 'payload_reference')).toEqual({ [ALICE_ON_BOBS_DEVICE]: HELD, [BOB_ON_HIS_DEVICE]: undefined });
    expect(await rows(tenant, '/users/bob/payloads', 'payload_reference')).toEqual({ [BOB_ON_ALICES_DEVICE]: HELD, [BOB_ON_HIS_DEVICE]: undefined });
  });

  it('another tenant with the same people sees no hold', async () => {
    expect((await get(other, '/users/alice')).held_by).toBeUndefined();
    expect((await get(other, '/devices/d-alice')).held_by).toBeUndefined();
    expect(Object.values(await rows(other, '/payloads', 'payload_reference')).every((held) => held === undefined)).toBe(true);
  });

  it('a release is shown at once, and a page reads the holds once, not once a row', async () => {
    let queries = 0;
    const counting: TableStore = { ...tenant.deps.table, query: (query) => ((queries += 1), tenant.deps.table.query(query)) };
    const index = await heldByIndex({ table: counting } as Pick<Dependencies, 'table'>, tenant.client);
    // The holds partition, then the one held user's devices.
    expect(queries).toBe(2);
    expect(index.recording({ device_reference: 'd-alice', device_user_reference: 'bob' })).toEqual(HELD);

    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/alice', tenant.admin)).status).toBe(200);
    expect((await get(tenant, '/users/alice')).held_by).toBeUndefined();
    expect((await get(tenant, `/payloads/${ALICE_ON_HER_DEVICE}`)).held_by).toBeUndefined();
  });
});
