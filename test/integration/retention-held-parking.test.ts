import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { ItemKey, TableItem, TableStore } from '#core/ports/table-store.ts';
import { gpsToItem } from '#core/store/entities/gps.ts';
import { keys } from '#core/store/keys.ts';
import { dueMarkerItems } from '../../lambdas/account-data/retention/due-index.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Held records are parked, not read every run (docs/decisions.md "Retention job"): the first run that finds a record
 * a legal hold keeps moves its due markers under that hold; later runs never read it; releasing the last hold that
 * keeps it puts its markers back, and the next run disposes of it. On the local stack, in a tenant of this run.
 */
let tenant: RunTenant;
const DAY = 86_400_000;
const old = (index: number) => new Date(Date.now() - 200 * DAY - index * 60_000).toISOString();
const POLICY = {
  PayloadData: [{ payload_type: 'Call', delete_after_days: 30, destroy_after_days: 100 }],
  GpsData: { delete_after_days: 30, destroy_after_days: 100 },
  UserActivityData: { delete_after_days: 30, destroy_after_days: 100 },
};
/** alice holds device d-alice; bob holds d-bob; carol is held by nobody. */
const HELD_BY_ALICE = ['P-ALICE-0000000000000000001', 'P-ALICE-0000000000000000002', 'P-ALICE-0000000000000000003'];
/** Deleted before alice's hold was placed: waiting for destruction when the run finds it held. */
const DELETED_OF_ALICE = 'P-ALICE-DELETED-000000000001';
/** Attributed to bob, recorded on alice's device: kept by both holds. */
const SHARED = 'P-SHARED-00000000000000000001';
const CAROLS = ['P-CAROL-0000000000000000001', 'P-CAROL-0000000000000000002'];
const ALICE_FIXES = 2;
const OFFICER = 'held-officer';
const OFFICER_RECORDS = 3;

/** Reads of the records the job may read, by record key (counted through a wrapped table). */
const reads = new Map<string, number>();
function counting(deps: Dependencies): Dependencies {
  const table = deps.table;
  const note = (key: ItemKey) => reads.set(`${key.pk}\n${key.sk}`, (reads.get(`${key.pk}\n${key.sk}`) ?? 0) + 1);
  const counted: TableStore = {
    get: (key, options) => (note(key), table.get(key, options)),
    put: (item, options) => table.put(item, options),
    update: (key, update, options) => table.update(key, update, options),
    delete: (key, options) => table.delete(key, options),
    query: (query) => table.query(query),
    transactWrite: (operations) => table.transactWrite(operations),
    batchGet: (list) => (list.forEach(note), table.batchGet(list)),
  };
  return { ...deps, table: counted, jobs: { start: async () => undefined } };
}
const readsOf = (keysRead: readonly ItemKey[]) => keysRead.reduce((sum, key) => sum + (reads.get(`${key.pk}\n${key.sk}`) ?? 0), 0);

const payloadKey = (reference: string) => keys.payload.key(tenant.client, reference);
const stateOf = async (reference: string) => (await tenant.deps.table.get(payloadKey(reference), { consistent: true }))?.payload_state;
const run = async (now = new Date()) => (await retentionJob(counting(tenant.deps), { client: tenant.client, now: now.toISOString() })) as Record<string, number>;
const parkedUnder = async (targetType: string, target: string) =>
  (await tenant.deps.table.query({ ...keys.retentionDue.listHeld(tenant.client, { targetType, target }), limit: 100 })).items;
const officerRecords: ItemKey[] = [];

function payload(reference: string, device: string, user: string, time: string, state = 'Processed'): TableItem {
  return {
    ...keys.payload.item(tenant.client, { payloadReference: reference, payloadTime: time, deviceReference: device, deviceUserReference: user }),
    client: tenant.client,
    payload_reference: reference,
    payload_type: 'Call',
    payload_state: state,
    device_reference: device,
    device_user_reference: user,
    payload_time: time,
    checksum: 'b'.repeat(64),
    ...(state === 'Deleted' ? { deleted_at: old(0) } : {}),
  };
}

beforeAll(async () => {
  tenant = await createRunTenant('parking');
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  for (const user of ['alice', 'bob', 'carol']) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: now });
    await deps.table.put({ ...keys.device.item(client, `d-${user}`, user), client, device_reference: `d-${user}`, device_user_reference: user });
  }
  await deps.table.put(portalUserItem({ sub: OFFICER, email: 'officer@example.com', client, roles: ['admin'] }, now, 'seed') as never);
  const records: TableItem[] = [
    ...HELD_BY_ALICE.map((reference, index) => payload(reference, 'd-alice', 'alice', old(index))),
    payload(DELETED_OF_ALICE, 'd-alice', 'alice', old(5), 'Deleted'),
    payload(SHARED, 'd-alice', 'bob', old(6)),
    ...CAROLS.map((reference, index) => payload(reference, 'd-carol', 'carol', old(index))),
    ...Array.from({ length: ALICE_FIXES }, (_, index) => gpsToItem(client, { client, gps_reference: `G-ALICE-${index}`, device_reference: 'd-alice', device_user_reference: 'alice', latitude: 51.5, longitude: -0.1, timestamp: old(index) })),
  ];
  for (const record of records) {
    await deps.table.put(record);
    for (const marker of dueMarkerItems(client, record)) await deps.table.put(marker);
  }
  for (let index = 0; index < OFFICER_RECORDS; index += 1) {
    const ref = await writeActivityRecord(deps, { trail: 'user', client, entry: { user_id: OFFICER, activity_time: old(index), action: 'payloads:List', is_allowed: true, roles: ['admin'], is_client_app: false, status_code: 200 } });
    officerRecords.push(ref.key);
  }
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, POLICY)).status).toBe(200);
  for (const path of ['DeviceUser/alice', 'DeviceUser/bob', `PortalUser/${OFFICER}`]) {
    expect((await tenant.call('PUT', `/account/legal_holds/${path}`, tenant.admin, {})).status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('held records parked by the retention job', () => {
  const heldPayloads = [...HELD_BY_ALICE, DELETED_OF_ALICE, SHARED];
  const heldKeys = () => [...heldPayloads.map(payloadKey), ...officerRecords];

  it('reads a held record once: the first run parks its markers under the hold, the second does not read it', async () => {
    const first = await run();
    // Carol's recordings are deleted; everything held is skipped and parked (the deleted one from the destroy pass).
    expect(first.deleted).toBe(CAROLS.length);
    const held = heldPayloads.length + ALICE_FIXES + OFFICER_RECORDS;
    expect(first.held).toBe(held);
    expect(first.parked).toBe(held);
    expect(readsOf(heldKeys())).toBe(heldPayloads.length + OFFICER_RECORDS);
    // Each record is parked under the first hold found to keep it: its device user's (the shared recording: bob's),
    // else its device holder's; the officer's activity records under the officer.
    const underAlice = await parkedUnder('DeviceUser', 'alice');
    const underBob = await parkedUnder('DeviceUser', 'bob');
    expect(underAlice.map((marker) => marker.reference).sort()).toEqual([...HELD_BY_ALICE, DELETED_OF_ALICE, 'G-ALICE-0', 'G-ALICE-1'].sort());
    expect(underBob.map((marker) => marker.reference)).toEqual([SHARED]);
    expect((await parkedUnder('PortalUser', OFFICER)).length).toBe(OFFICER_RECORDS);
    expect(underAlice.every((marker) => marker.stage === 'HELD')).toBe(true);

    reads.clear();
    const second = await run(new Date(Date.now() + DAY));
    expect(second.held ?? 0).toBe(0);
    expect(readsOf(heldKeys())).toBe(0);
    // Carol's deleted recordings are destroyed; nothing held is touched.
    expect(second.destroyed).toBe(CAROLS.length);
    for (const reference of HELD_BY_ALICE) expect(await stateOf(reference)).toBe('Processed');
  }, 120_000);

  it('keeps a record kept by two holds parked until the last of them is released', async () => {
    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/bob', tenant.admin)).status).toBe(200);
    // Bob's release moved the shared recording under alice's hold (her device recorded it), not back to due.
    expect(await parkedUnder('DeviceUser', 'bob')).toEqual([]);
    expect((await parkedUnder('DeviceUser', 'alice')).map((marker) => marker.reference)).toContain(SHARED);
    reads.clear();
    const third = await run(new Date(Date.now() + 2 * DAY));
    expect(third.held ?? 0).toBe(0);
    expect(readsOf([payloadKey(SHARED)])).toBe(0);
    expect(await stateOf(SHARED)).toBe('Processed');
  }, 120_000);

  it('after the last release, the records are due again and the next run disposes of them', async () => {
    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/alice', tenant.admin)).status).toBe(200);
    expect((await tenant.applied('DELETE', `/account/legal_holds/PortalUser/${OFFICER}`, tenant.admin)).status).toBe(200);
    expect(await parkedUnder('DeviceUser', 'alice')).toEqual([]);
    expect(await parkedUnder('PortalUser', OFFICER)).toEqual([]);
    // Back in the stage their record's state says: the deleted recording waits for destruction again.
    const deletedMarker = await tenant.deps.table.get(keys.retentionDue.key(tenant.client, payloadKey(DELETED_OF_ALICE), 'payload_time'));
    expect(deletedMarker?.stage).toBe('DELETED');

    const fourth = await run(new Date(Date.now() + 3 * DAY));
    expect(fourth.held ?? 0).toBe(0);
    expect(fourth.destroyed).toBe(1);
    expect(fourth.deleted).toBe(HELD_BY_ALICE.length + 1 + ALICE_FIXES + OFFICER_RECORDS);
    for (const reference of [...HELD_BY_ALICE, SHARED]) expect(await stateOf(reference)).toBe('Deleted');
    expect(await stateOf(DELETED_OF_ALICE)).toBe('Destroyed');
  }, 120_000);

  it('does not park under a hold released meanwhile: the marker stays due', async () => {
    // A hold released between the run's read and its parking: the transaction's check on the hold refuses.
    const { parkHeldRecords } = await import('../../lambdas/account-data/legal-holds/parked-markers.ts');
    const { retainedRecordOf } = await import('../../lambdas/account-data/retention/due-index.ts');
    const item = payload('P-RACE-000000000000000000001', 'd-carol', 'carol', old(1));
    await tenant.deps.table.put(item);
    for (const marker of dueMarkerItems(tenant.client, item)) await tenant.deps.table.put(marker);
    const record = retainedRecordOf(item);
    expect(record).toBeDefined();
    expect(await parkHeldRecords(tenant.deps, tenant.client, [{ record: record!, hold: { targetType: 'DeviceUser', target: 'alice' } }])).toBe(0);
    expect((await tenant.deps.table.get(keys.retentionDue.key(tenant.client, item, 'payload_time')))?.stage).toBe('LIVE');
  });
});
