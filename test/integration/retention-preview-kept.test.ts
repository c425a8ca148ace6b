import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { dueMarkerItems } from '../../lambdas/account-data/retention/due-index.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * The retention impact preview tells what the run will actually do: a call under a legal hold, a deleted call whose
 * object's Object Lock retention is still in force, and a video still waiting for its required receipt are previewed as
 * kept, each with its reason, beside the call it deletes and the one it destroys; the run then does exactly that (its
 * counts equal the preview's), and a held record the run parked off the due index is still previewed as kept.
 */
let tenant: RunTenant;
const DAY = 86_400_000;
const old = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const POLICY = {
  PayloadData: [
    { payload_type: 'Call', delete_after_days: 1, destroy_after_days: 2 },
    { payload_type: 'Video', delete_after_days: 1, required_receipts: 1 },
  ],
};
const HELD = 'P-KEPT-HELD-0000000000000001';
const LOCKED = 'P-KEPT-LOCKED-00000000000001';
const AWAITING_RECEIPT = 'P-KEPT-RECEIPT-0000000000001';
const TO_DELETE = 'P-KEPT-DELETE-00000000000001';
const TO_DESTROY = 'P-KEPT-DESTROY-0000000000001';

function payload(reference: string, type: 'Call' | 'Video', user: string, state: 'Processed' | 'Deleted'): TableItem {
  const time = old(10);
  return {
    ...keys.payload.item(tenant.client, {
      payloadReference: reference,
      payloadTime: time,
      deviceReference: `d-${user}`,
      deviceUserReference: user,
    }),
    client: tenant.client,
    payload_reference: reference,
    payload_type: type,
    payload_state: state,
    device_reference: `d-${user}`,
    device_user_reference: user,
    payload_time: time,
    checksum: 'c'.repeat(64),
    ...(state === 'Deleted' ? { deleted_at: old(5) } : {}),
  };
}

const previewRow = async (type: string) => {
  const answer = await tenant.call('POST', '/account/retention/preview', tenant.admin, POLICY);
  expect(answer.status).toBe(200);
  const row = RetentionPreview.parse(answer.body).rows.find((one) => one.record_type === 'PayloadData' && one.payload_type === type);
  expect(row).toBeDefined();
  return row!.proposed;
};
const keptOf = (due: RetentionPreview['rows'][number]['proposed']) => Object.fromEntries(due.kept.map((kept) => [`${kept.reason}:${kept.instead_of}`, kept.count]));

beforeAll(async () => {
  tenant = await createRunTenant('kept');
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  for (const user of ['held-user', 'free-user']) {
    await deps.table.put({
      ...keys.deviceUser.item(client, user),
      client,
      device_user_reference: user,
      is_active: true,
      services: [],
      updated_at: now,
    });
    await deps.table.put({
      ...keys.device.item(client, `d-${user}`, user),
      client,
      device_reference: `d-${user}`,
      device_user_reference: user,
    });
  }
  const records = [
    payload(HELD, 'Call', 'held-user', 'Processed'),
    payload(LOCKED, 'Call', 'free-user', 'Deleted'),
    payload(TO_DELETE, 'Call', 'free-user', 'Processed'),
    payload(TO_DESTROY, 'Call', 'free-user', 'Deleted'),
    payload(AWAITING_RECEIPT, 'Video', 'free-user', 'Processed'),
  ];
  for (const record of records) {
    await deps.table.put(record);
    for (const marker of dueMarkerItems(client, record)) await deps.table.put(marker);
  }
  // The deleted call's object is still locked for a week; the other one's lock has run out.
  for (const reference of [LOCKED, TO_DESTROY]) await deps.blobs.put('processed', payloadObjectKey(client, reference), Buffer.from(`call ${reference}`));
  expect(await deps.blobs.setRetention('processed', payloadObjectKey(client, LOCKED), { mode: 'GOVERNANCE', retainUntil: new Date(Date.now() + 7 * DAY) })).toBe(true);
  // A shorter period waits for a second approver (four eyes): `applied` approves it as one.
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, POLICY)).status).toBe(200);
  expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/held-user', tenant.admin, {})).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await tenant?.close();
});

describe('the retention impact preview tells what the run will do', () => {
  it('counts the held, the locked and the receipt-pending records as kept, each with its reason', async () => {
    const call = await previewRow('Call');
    expect(call.deleted).toEqual({ count: 1, more: false });
    expect(call.destroyed).toEqual({ count: 1, more: false });
    expect(keptOf(call)).toEqual({
      'legal_hold:Deleted': 1,
      'object_lock:Destroyed': 1,
    });
    const video = await previewRow('Video');
    expect(video.deleted).toEqual({ count: 0, more: false });
    expect(keptOf(video)).toEqual({ 'requirements:Deleted': 1 });
  });

  it('the run then does what the preview said, and the parked held call is still previewed as kept', async () => {
    const [call, video] = [await previewRow('Call'), await previewRow('Video')];
    const run = (await retentionJob({ ...tenant.deps, jobs: { start: async () => undefined } }, { client: tenant.client })) as Record<string, number>;
    const kept = (reason: string) => [...call.kept, ...video.kept].filter((one) => one.reason === reason).reduce((sum, one) => sum + one.count, 0);
    expect(run.deleted ?? 0).toBe(call.deleted.count + video.deleted.count);
    expect(run.destroyed ?? 0).toBe(call.destroyed.count + video.destroyed.count);
    expect(run.held ?? 0).toBe(kept('legal_hold'));
    expect(run.locked ?? 0).toBe(kept('object_lock'));
    expect(run.requirements ?? 0).toBe(kept('requirements'));
    const state = async (reference: string) => (await tenant.deps.table.get(keys.payload.key(tenant.client, reference), { consistent: true }))?.payload_state;
    expect(await state(HELD)).toBe('Processed');
    expect(await state(LOCKED)).toBe('Deleted');
    expect(await state(TO_DELETE)).toBe('Deleted');
    expect(await state(TO_DESTROY)).toBe('Destroyed');
    expect(await state(AWAITING_RECEIPT)).toBe('Processed');

    // The held call's markers are parked under its hold now, off the due index: the preview still counts it kept.
    expect(run.parked).toBe(1);
    expect(keptOf(await previewRow('Call'))['legal_hold:Deleted']).toBe(1);
  }, 120_000);
});
