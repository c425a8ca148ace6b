import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { commentToItem } from '#core/store/entities/comment.ts';
import { legalHoldToItem } from '#core/store/entities/legal-hold.ts';
import { retentionDueToItem } from '#core/store/entities/retention-due.ts';
import { keys, payloadObjectKey, type ActivityTrail } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import { purgeMarkerOf, purgeObjects } from '../../lambdas/account-data/retention/dispose.ts';
import { dueMarkerItems, retainedRecordOf, type RetainedRecord } from '../../lambdas/account-data/retention/due-index.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { listActivities, listDeviceActivityTrail } from '../../lambdas/audit/activities-service.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Two follow-ups to retention disposal, on the local stack. A destroyed recording's comments go with it, a page at a
 * time after the disposal's transaction (its PURGE marker stays until they are gone; a comment whose author a legal
 * hold keeps stays until the release), while its audit items, other recordings' comments and another tenant's stay.
 * And the activity totals leave out what retention deleted or destroyed: each trail's total equals what its list pages
 * through, after deletions, after destructions, for linked and unlinked records.
 */
let tenant: RunTenant;
let other: RunTenant;
const DAY = 86_400_000;
const POLICY = {
  PayloadData: [{ payload_type: 'Call', delete_after_days: 30, destroy_after_days: 100 }],
  UserActivityData: { delete_after_days: 30, destroy_after_days: 100 },
  // No deletion: device records are destroyed straight from live.
  DeviceActivityData: { destroy_after_days: 100 },
};
const DOOMED = '01JFOLLOWUPDOOMED000000000P';
const KEPT = '01JFOLLOWUPKEPT00000000000P';
const COMMENTS = 250;
const HELD_AUTHOR = 'held-officer';
const OLD_LINKED_USER = 10;
const OLD_UNLINKED_USER = 4;
const RECENT_USER = 5;
const OLD_LINKED_DEVICE = 6;
const OLD_UNLINKED_DEVICE = 3;
const RECENT_DEVICE = 4;

const old = (index: number) => new Date(Date.now() - 200 * DAY - index * 60_000).toISOString();
const recent = (index: number) => new Date(Date.now() - 60 * 60_000 - index * 60_000).toISOString();

function recording(client: string, reference: string, time: string, state = 'Processed'): TableItem {
  return {
    ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: 'dev-9', deviceUserReference: 'du-9' }),
    client,
    payload_reference: reference,
    payload_type: 'Call',
    payload_state: state,
    device_reference: 'dev-9',
    device_user_reference: 'du-9',
    group: 'traders',
    checksum: 'b'.repeat(64),
    is_legacy: false,
    is_late: false,
    payload_time: time,
    uploaded_at: time,
    processed_at: time,
    updated_at: time,
    updated_by: 'processing',
  };
}

/** `count` comments on a recording, raised a minute apart (ULID ids in order), by `author`. */
async function comment(deps: Dependencies, client: string, reference: string, count: number, author = 'officer@example.test', from = 0) {
  for (let index = from; index < from + count; index += 1) {
    const at = new Date(Date.parse('2025-01-01T00:00:00Z') + index * 60_000);
    const id = `01JC0MMENT${String(index).padStart(16, '0')}`;
    await deps.table.put(
      commentToItem(client, { comment_id: id, comment_body: `about the call ${index}`, raised_by: author, raised_at: at.toISOString(), comment_version: 1, is_closed: false, payload_reference: reference, payload_type: 'Call', group: 'traders' }),
    );
  }
}

async function storedComments(deps: Dependencies, client: string, reference: string): Promise<TableItem[]> {
  return readAll(deps.table, { ...keys.comment.listByPayload(client, reference), sort: { beginsWith: keys.comment.sortPrefix }, consistent: true });
}

async function purgeMarker(deps: Dependencies, client: string, reference: string): Promise<TableItem | undefined> {
  return deps.table.get(keys.retentionDue.key(client, keys.payload.key(client, reference), 'purge'), { consistent: true });
}

async function setHold(deps: Dependencies, client: string, active: boolean) {
  const now = new Date().toISOString();
  await deps.table.put(legalHoldToItem({ client, target: HELD_AUTHOR, target_type: 'PortalUser', is_active: active, created_at: now, updated_at: now }));
}

/** The user trail's total and list through the service (an API call would add its own record between the two). */
async function userTrail(): Promise<{ total: number; listed: number }> {
  const { client, deps } = tenant;
  const total = (await listActivities(adminCaller(deps, client, 'activities:List'), { result_type: 'total', limit: 50 })) as { count: number };
  let listed = 0;
  let last: string | undefined;
  do {
    const page = (await listActivities(adminCaller(deps, client, 'activities:List'), { result_type: 'page', limit: 7, ...(last === undefined ? {} : { last_key: last }) })) as { data: unknown[]; last_key?: string };
    listed += page.data.length;
    last = page.last_key;
  } while (last !== undefined);
  return { total: total.count, listed };
}

/** The device trail's total (the trail's own count) and what its list pages through. */
async function deviceTrail(): Promise<{ total: number; listed: number }> {
  const { client, deps } = tenant;
  const total = (await listDeviceActivityTrail(adminCaller(deps, client, 'deviceActivities:List'), { result_type: 'total', limit: 50 })) as { count: number };
  let listed = 0;
  let last: string | undefined;
  do {
    const page = (await listDeviceActivityTrail(adminCaller(deps, client, 'deviceActivities:List'), { result_type: 'page', limit: 7, ...(last === undefined ? {} : { last_key: last }) })) as { data: unknown[]; last_key?: string };
    listed += page.data.length;
    last = page.last_key;
  } while (last !== undefined);
  return { total: total.count, listed };
}

async function disposedCount(trail: ActivityTrail): Promise<number> {
  const { entity: _tag, ...key } = keys.activityChain.disposedCount(trail, tenant.client);
  return Number((await tenant.deps.table.get(key, { consistent: true }))?.disposed_count ?? 0);
}

/** The trail's records retention marked Deleted or left as stubs (what the disposed count must equal). */
async function disposedInTrail(trail: ActivityTrail): Promise<TableItem[]> {
  const records = await readAll(tenant.deps.table, { ...keys.activityChain.records(trail, tenant.client), consistent: true });
  return records.filter((item) => item.retention_state !== undefined);
}

async function writeRecords(trail: ActivityTrail, count: number, time: (index: number) => string, tag: string) {
  const { client, deps } = tenant;
  for (let index = 0; index < count; index += 1) {
    const entry =
      trail === 'user'
        ? { user_id: 'officer', activity_time: time(index), action: 'payloads:List', is_allowed: true, roles: ['admin'], is_client_app: false, status_code: 200 }
        : { log_id: `${tag}-${index}`, device_reference: 'dev-9', device_user_reference: 'du-9', group: 'traders', activity_time: time(index), action: 'device:Poll', is_allowed: true };
    await writeActivityRecord(deps, { trail, client, entry });
  }
}

beforeAll(async () => {
  tenant = await createRunTenant('follow-ups');
  other = await createRunTenant('follow-ups-other');
  const { client, deps } = tenant;
  // Recordings: one due, one recent; and in another tenant one due under the same reference.
  for (const [owner, reference, time] of [
    [tenant, DOOMED, old(0)],
    [tenant, KEPT, recent(0)],
    [other, DOOMED, old(0)],
  ] as const) {
    const payload = recording(owner.client, reference, time);
    await owner.deps.table.put(payload);
    for (const marker of dueMarkerItems(owner.client, payload)) await owner.deps.table.put(marker);
    await owner.deps.blobs.put('processed', payloadObjectKey(owner.client, reference), Buffer.from('a recording'), {});
  }
  await comment(deps, client, DOOMED, COMMENTS);
  await comment(deps, client, DOOMED, 1, HELD_AUTHOR, COMMENTS);
  await comment(deps, client, KEPT, 3);
  await comment(other.deps, other.client, DOOMED, 5);
  // A receipt in the doomed recording's audit: evidence, kept.
  await deps.table.put({ ...keys.payload.audit(client, DOOMED, { time: old(0), id: 'receipt-1' }), client, action: 'receipt', payload_reference: DOOMED });
  await setHold(deps, client, true);

  // Activity: old records linked, old records still waiting for the sequencer, recent ones.
  await writeRecords('user', OLD_LINKED_USER, old, 'linked');
  await writeRecords('device', OLD_LINKED_DEVICE, old, 'linked');
  for (const trail of ['user', 'device'] as const) await linkPending(deps, trail, client);
  await writeRecords('user', OLD_UNLINKED_USER, (index) => old(100 + index), 'waiting');
  await writeRecords('device', OLD_UNLINKED_DEVICE, (index) => old(100 + index), 'waiting');
  await writeRecords('user', RECENT_USER, recent, 'recent');
  await writeRecords('device', RECENT_DEVICE, recent, 'recent');
  for (const owner of [tenant, other]) expect((await owner.applied('PUT', '/account/retention', owner.admin, POLICY)).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

describe('retention follow-ups', () => {
  it('counts every record before any disposal: totals equal the lists', async () => {
    const user = await userTrail();
    expect(user.total).toBe(user.listed);
    expect(user.listed).toBeGreaterThanOrEqual(OLD_LINKED_USER + OLD_UNLINKED_USER + RECENT_USER);
    expect(await deviceTrail()).toEqual({ total: OLD_LINKED_DEVICE + OLD_UNLINKED_DEVICE + RECENT_DEVICE, listed: OLD_LINKED_DEVICE + OLD_UNLINKED_DEVICE + RECENT_DEVICE });
  }, 60_000);

  it('first run: deletes the recording (comments stay), deletes user records and destroys device records; totals follow the lists', async () => {
    const { client, deps } = tenant;
    const before = await userTrail();
    // A waiting record the local stack's sequencer links while the run destroys it is left for the next run ('raced'),
    // as it would be in AWS; a run at once takes what was left, so the two together dispose of each record once.
    let result = await retentionJob(deps, { client });
    const disposed = { deleted: Number(result.deleted ?? 0), destroyed: Number(result.destroyed ?? 0) };
    for (let again = 0; Number(result.raced ?? 0) > 0 && again < 3; again += 1) {
      result = await retentionJob(deps, { client });
      disposed.deleted += Number(result.deleted ?? 0);
      disposed.destroyed += Number(result.destroyed ?? 0);
    }
    expect(disposed).toEqual({ deleted: 1 + OLD_LINKED_USER + OLD_UNLINKED_USER, destroyed: OLD_LINKED_DEVICE + OLD_UNLINKED_DEVICE });
    expect((await deps.table.get(keys.payload.key(client, DOOMED), { consistent: true }))?.payload_state).toBe('Deleted');
    expect(await storedComments(deps, client, DOOMED)).toHaveLength(COMMENTS + 1);

    const user = await userTrail();
    expect(user.total).toBe(user.listed);
    // The deleted records left the list; the run's own records are none (it writes no user activity).
    expect(user.listed).toBe(before.listed - OLD_LINKED_USER - OLD_UNLINKED_USER);
    expect(await deviceTrail()).toEqual({ total: RECENT_DEVICE, listed: RECENT_DEVICE });
    // Every deleted user record counts; of the destroyed device records, those that leave a stub (linked ones; the
    // local stack's sequencer may have linked the waiting ones meanwhile) and no others.
    expect(await disposedCount('user')).toBe(OLD_LINKED_USER + OLD_UNLINKED_USER);
    expect(await disposedCount('device')).toBe((await disposedInTrail('device')).length);
    expect(await disposedCount('device')).toBeGreaterThanOrEqual(OLD_LINKED_DEVICE);
  }, 120_000);

  it('second run: destroys the recording and its comments, but not a held author\'s comment, its audit, or others\' comments', async () => {
    const { client, deps } = tenant;
    // The local stack's sequencer links waiting records every second, and a record it links while this run destroys
    // it is left for the next run ('raced'). Link them all first, so the run meets each in one settled state.
    for (const trail of ['user', 'device'] as const) await linkPending(deps, trail, client);
    const result = await retentionJob(deps, { client, now: new Date(Date.now() + DAY).toISOString() });
    // The recording is destroyed, its purge not finished: a held author's comment is left.
    expect(result).toMatchObject({ destroyed: OLD_LINKED_USER + OLD_UNLINKED_USER, purge_pending: 1 });
    expect((await deps.table.get(keys.payload.key(client, DOOMED), { consistent: true }))?.payload_state).toBe('Destroyed');

    // Only the held author's comment is left, and the PURGE marker waits for it.
    const left = await storedComments(deps, client, DOOMED);
    expect(left.map((item) => item.raised_by)).toEqual([HELD_AUTHOR]);
    expect(await purgeMarker(deps, client, DOOMED)).toBeDefined();
    // The tenant-wide comment list no longer finds them either (their index entries went with them).
    const tenantWide = await readAll(deps.table, { ...keys.comment.list(client), consistent: false });
    expect(tenantWide.filter((item) => item.payload_reference === DOOMED && item.raised_by !== HELD_AUTHOR)).toEqual([]);
    // The recording's audit stays; another recording's comments and another tenant's are untouched.
    const audit = await deps.table.query({ partition: keys.payload.key(client, DOOMED).pk, sort: { beginsWith: keys.payload.auditPrefix }, consistent: true });
    expect(audit.items.map((item) => item.action)).toEqual(['receipt']);
    expect(await storedComments(deps, client, KEPT)).toHaveLength(3);
    expect(await storedComments(other.deps, other.client, DOOMED)).toHaveLength(5);
    expect((await other.deps.table.get(keys.payload.key(other.client, DOOMED), { consistent: true }))?.payload_state).toBe('Processed');

    // Destroying deleted records: linked ones keep their count (stubs), unlinked ones leave the pending index and the
    // count (unit-tested in activity.test.ts; here the local sequencer may have linked them first).
    const userDisposed = await disposedInTrail('user');
    expect(userDisposed.every((item) => item.retention_state === 'Destroyed')).toBe(true);
    expect(await disposedCount('user')).toBe(userDisposed.length);
    expect(userDisposed.length).toBeGreaterThanOrEqual(OLD_LINKED_USER);
    const user = await userTrail();
    expect(user.total).toBe(user.listed);
    expect(await deviceTrail()).toEqual({ total: RECENT_DEVICE, listed: RECENT_DEVICE });
    // The chains still verify with the stubs and marks in place, and the totals hold once everything is linked.
    for (const trail of ['user', 'device'] as const) {
      await linkPending(deps, trail, client);
      expect(await verifyChain(deps, client, trail, { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID })).toMatchObject({ whole: true });
    }
    const linked = await userTrail();
    expect(linked.total).toBe(linked.listed);
    expect(await deviceTrail()).toEqual({ total: RECENT_DEVICE, listed: RECENT_DEVICE });
  }, 120_000);

  it('answers the destroyed recording\'s comments as none, and refuses new ones and changes with 409', async () => {
    const { client, deps } = tenant;
    expect((await tenant.call('GET', `/payloads/${DOOMED}/comments`, tenant.admin)).body).toEqual({ count: 0, data: [] });
    expect((await tenant.call('GET', `/payloads/${DOOMED}/comments?include_closed=true&result_type=total`, tenant.admin)).body).toEqual({ count: 0 });
    const created = await tenant.call('POST', `/payloads/${DOOMED}/comments`, tenant.admin, { message: 'too late' });
    expect(created.status).toBe(409);
    expect(created.body.message).toMatch(/^payload_state: A destroyed recording takes no comments/);
    const [held] = await storedComments(deps, client, DOOMED);
    expect((await tenant.call('PUT', `/payloads/${DOOMED}/comments/${String(held?.comment_id)}`, tenant.admin, { message: 'edited' })).status).toBe(409);
    expect((await tenant.call('DELETE', `/payloads/${DOOMED}/comments/${String(held?.comment_id)}`, tenant.admin)).status).toBe(409);
    expect(await storedComments(deps, client, DOOMED)).toHaveLength(1);
    // The tenant-wide list shows none of them either: the held author's comment is kept as evidence, not listed.
    const tenantWide = await tenant.call('GET', '/comments?include_closed=true&limit=100', tenant.admin);
    expect(tenantWide.status).toBe(200);
    const listed = (tenantWide.body.data as { payload_reference: string }[]).map((listedComment) => listedComment.payload_reference);
    expect(listed).not.toContain(DOOMED);
    expect(listed.filter((reference) => reference === KEPT)).toHaveLength(3);
    expect((await tenant.call('GET', '/comments?include_closed=true&result_type=total', tenant.admin)).body).toEqual({ count: 3 });
    // A live recording still takes comments.
    expect((await tenant.call('POST', `/payloads/${KEPT}/comments`, tenant.admin, { message: 'still open' })).status).toBe(200);
  }, 60_000);

  it('removes the held author\'s comment once the hold is released, then the PURGE marker', async () => {
    const { client, deps } = tenant;
    await setHold(deps, client, false);
    const result = await retentionJob(deps, { client, now: new Date(Date.now() + 2 * DAY).toISOString() });
    expect(result).toMatchObject({ purged: 1 });
    expect(await storedComments(deps, client, DOOMED)).toEqual([]);
    expect(await purgeMarker(deps, client, DOOMED)).toBeUndefined();
    expect(await storedComments(deps, client, KEPT)).toHaveLength(4);
  }, 120_000);

  it('goes on where it stopped: a call removes a bounded number of pages, the marker stays until the last', async () => {
    const { client, deps } = tenant;
    const reference = '01JFOLLOWUPREMNANT00000000P';
    const remnant = { ...recording(client, reference, old(0), 'Destroyed'), destroyed_at: new Date().toISOString() };
    await deps.table.put(remnant);
    await comment(deps, client, reference, 70);
    const marker = purgeMarkerOf(client, retainedRecordOf(remnant) as RetainedRecord, new Date());
    await deps.table.put(retentionDueToItem(marker));
    const limits = { page: 20, pages: 2 };
    expect(await purgeObjects(deps, client, marker, limits)).toBe(false);
    expect(await storedComments(deps, client, reference)).toHaveLength(30);
    expect(await purgeMarker(deps, client, reference)).toBeDefined();
    expect(await purgeObjects(deps, client, marker, limits)).toBe(true);
    expect(await storedComments(deps, client, reference)).toEqual([]);
    expect(await purgeMarker(deps, client, reference)).toBeUndefined();
  }, 60_000);
});
