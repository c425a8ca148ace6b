import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { ItemKey, TableItem, TransactOperation } from '#core/ports/table-store.ts';
import { readDisposal, type DisposalItem } from '#core/store/entities/disposal.ts';
import { migrationToItem, readMigration } from '#core/store/entities/migration.ts';
import { readRetentionDue, retentionDueToItem, type RetentionDueItem } from '#core/store/entities/retention-due.ts';
import { readTransfer, transferToItem } from '#core/store/entities/transfer.ts';
import { keys, migrationObjectKey } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { endMigration } from '../../lambdas/migrations/job/outcome.ts';
import { listDeviceUsers, offboardDeviceUser, onboardDeviceUser } from '../../lambdas/devices/device-users/device-users.ts';
import { changeState, getRequest, putRequest } from '../../lambdas/support-access/support-access-store.ts';
import { finishTransfer } from '../../lambdas/transfers/job/closing.ts';
import { failUnstarted } from '../../lambdas/transfers/runs/fail-unstarted.ts';
import type { RunContext } from '../../lambdas/transfers/job/context.ts';
import { adminCaller } from './support/admin-caller.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * The five record types with a life of their own (device users, legal holds, support access, transfer runs, legacy
 * migrations) on the retention due index, on the local stack: each gets its marker from the write that ends it, the
 * job deletes it and later destroys it with a disposal record each, leaves alone what has not ended (even under a
 * stray marker), a held or still-equipped device user, and another tenant's records; a big migration's results and a
 * transfer's files go a page at a time across invocations.
 */
let tenant: RunTenant;
let other: RunTenant;
let otherRefs: typeof refs;

const DAY = 86_400_000;
/** The main tenant's policy for the five types: delete a day after the end, destroy a thousand days after. */
const PERIODS = { delete_after_days: 1, destroy_after_days: 1000 };
const TYPES = ['DeviceUserData', 'LegalHoldData', 'SupportAccessData', 'TransferableData', 'LegacyMigrationData'] as const;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
/** A run that deletes (ten days on) and one that destroys (two thousand days on). */
const DELETE_AT = at(10);
const DESTROY_AT = at(2000);
const RESULTS = 1_200;
const FILES = 250;

const refs = { migration: '', pendingMigration: '', transfer: '', runningTransfer: '', rejected: '', pending: '' };

/** The record's own markers (holds, requests, migrations and transfers share their partitions with their kind). */
const markersOf = async (deps: Dependencies, key: ItemKey) =>
  (await deps.table.query({ partition: `${key.pk}#RETAIN`, sort: { beginsWith: 'at#' }, consistent: true })).items.map(readRetentionDue).filter((marker) => marker.record_sk === key.sk);

async function countOf(deps: Dependencies, partition: string): Promise<number> {
  let count = 0;
  for await (const page of eachPage(deps.table, { partition }, 1000)) count += page.length;
  return count;
}

async function allDisposals(deps: Dependencies, client: string): Promise<DisposalItem[]> {
  const found: DisposalItem[] = [];
  for await (const page of eachPage(deps.table, keys.disposal.list(client), 1000)) found.push(...page.map(readDisposal));
  return found;
}

async function putInTransactions(deps: Dependencies, items: TableItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += 100) {
    await deps.table.transactWrite(items.slice(start, start + 100).map((item): TransactOperation => ({ kind: 'put', item })));
  }
}

/** One invocation of the job; its continuation (if it started one) is answered, not run. */
async function invoke(deps: Dependencies, input: Record<string, unknown>): Promise<{ result: Record<string, unknown>; next?: Record<string, unknown> }> {
  const starts: Array<Record<string, unknown>> = [];
  const result = await retentionJob({ ...deps, jobs: { start: async (_job, next) => void starts.push(next) } }, input);
  return { result, ...(starts[0] === undefined ? {} : { next: starts[0] }) };
}

async function runToEnd(deps: Dependencies, input: Record<string, unknown>): Promise<number> {
  let next: Record<string, unknown> | undefined = input;
  let invocations = 0;
  while (next !== undefined) {
    invocations += 1;
    next = (await invoke(deps, next)).next;
  }
  return invocations;
}

const dashboard = async (one: RunTenant): Promise<Record<string, unknown>> => (await one.deps.table.get(keys.device.dashboardCounters(one.client), { consistent: true })) ?? {};

/** An administrator's scope over every group (the device-user writes are called as their routes call them). */

const userRequest = (reference: string) => ({ group: 'team', services: ['calls' as const], expected_device_count: 1, email: `${reference}@example.com`, first_name: 'Pat', surname: reference, is_active: true });

async function deviceUser(one: RunTenant, reference: string, offboard: boolean): Promise<void> {
  await onboardDeviceUser(adminCaller(one.deps, one.client, 'deviceUsers:Create'), reference, userRequest(reference));
  if (offboard) await offboardDeviceUser(adminCaller(one.deps, one.client, 'deviceUsers:Delete'), reference);
}

/** The records of one tenant, through their own write paths where those exist. */
async function seed(one: RunTenant, main: boolean): Promise<void> {
  const { client, deps } = one;
  const now = new Date().toISOString();
  await deps.table.put({ ...keys.group.item(client, 'team'), client, group_reference: 'team', tags: [], updated_at: now });

  // Device users: one offboarded (and its released hold), one onboarded; in the main tenant also one held, one still
  // holding a device, one onboarded again after its offboarding.
  await deviceUser(one, 'gone', true);
  await deviceUser(one, 'staying', false);
  expect((await one.call('PUT', '/account/legal_holds/DeviceUser/gone', one.admin, {})).status).toBe(200);
  expect((await one.applied('DELETE', '/account/legal_holds/DeviceUser/gone', one.admin)).status).toBe(200);
  if (main) {
    await deviceUser(one, 'held', true);
    expect((await one.call('PUT', '/account/legal_holds/DeviceUser/held', one.admin, {})).status).toBe(200);
    await deviceUser(one, 'equipped', true);
    await deps.table.put({ ...keys.device.item(client, 'dev-eq', 'equipped'), client, device_reference: 'dev-eq', device_user_reference: 'equipped', is_deactivated: false });
    await deviceUser(one, 'back', true);
    expect((await onboardDeviceUser(adminCaller(deps, client, 'deviceUsers:Create'), 'back', userRequest('back'))).created).toBe(false);
  }

  // Support access: one rejected (ended), one still pending.
  const request = (reference: string) => ({ client, request_reference: reference, role: 'admin', requested_expiry: at(20), approval_state: 'pending' as const, requested_by: 'staff', created_at: now, updated_at: now, updated_by: 'staff' });
  refs.rejected = ulid();
  refs.pending = ulid();
  await putRequest(deps.table, request(refs.rejected));
  await putRequest(deps.table, request(refs.pending));
  await changeState(deps.table, request(refs.rejected), { event: 'reject', to: 'rejected', at: new Date().toISOString(), by: 'tenant', set: { rejection_reason: 'not now' } });

  // A migration ended by the import job's last write, with its results and export file; another still Pending.
  refs.migration = ulid();
  refs.pendingMigration = ulid();
  const migration = (reference: string) =>
    migrationToItem({
      client,
      migration_reference: reference,
      migration_state: 'Pending',
      filename: 'export.zip',
      object_key: migrationObjectKey(client, reference),
      size_bytes: 10,
      counters: {},
      warnings: [],
      checkpoint_row: main ? RESULTS : 1,
      invocations: 1,
      tallies: {},
    });
  await deps.table.put(migration(refs.migration));
  await deps.table.put(migration(refs.pendingMigration));
  await deps.blobs.put('raw', migrationObjectKey(client, refs.migration), Buffer.from('the export'));
  const results = Array.from({ length: main ? RESULTS : 3 }, (_, row) => ({
    ...keys.migrationResult.item(client, refs.migration, { row: row + 1, index: 0, type: 'Error', kind: 'error' }),
    client,
    row: row + 1,
    message: `row ${row + 1}`,
  }));
  await putInTransactions(deps, results);
  expect(await endMigration(deps, readMigration(migration(refs.migration)), { state: 'PartialFail', message: 'some rows failed' })).toBe(true);

  // A transfer run finished by the transfer job, with its files and a reported record; another still running.
  refs.transfer = ulid();
  refs.runningTransfer = ulid();
  const transfer = (id: string) =>
    transferToItem({ client, transfer_id: id, transfer_config_reference: 'nightly', transfer_type: 'Payload', created_at: now, transfer_state: 'InProgress', transfers: [], related_payloads: [], payload_count: 0, started_by: 'schedule', lease_id: 'lease', files_total: FILES, files_done: FILES, files_failed: 0 });
  await deps.table.put(transfer(refs.transfer));
  await deps.table.put(transfer(refs.runningTransfer));
  const files = Array.from({ length: main ? FILES : 2 }, (_, index) => ({ ...keys.transferFile.item(client, refs.transfer, '1', `file-${index}`), client, name: `file-${index}` }));
  await putInTransactions(deps, [...files, { ...keys.transferRecord.item(client, refs.transfer, 'P1'), client }]);
  const context = { deps, client, transferId: refs.transfer, leaseId: 'lease', config: { transfer_config_reference: 'nightly' } } as unknown as RunContext;
  expect(await finishTransfer(context)).toBe('Succeeded');
}

const keyOf = {
  user: (client: string, reference: string) => keys.deviceUser.key(client, reference),
  hold: (client: string, reference: string) => keys.legalHold.key(client, 'DeviceUser', reference),
  support: (client: string, reference: string) => keys.supportAccess.key(client, reference),
  migration: (client: string, reference: string) => keys.migration.key(client, reference),
  transfer: (client: string, reference: string) => keys.transfer.key(client, reference),
};

beforeAll(async () => {
  tenant = await createRunTenant('kinds');
  other = await createRunTenant('kindsb');
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, Object.fromEntries(TYPES.map((type) => [type, PERIODS])))).status).toBe(200);
  await seed(tenant, true);
  const mainRefs = { ...refs };
  await seed(other, false);
  otherRefs = { ...refs };
  Object.assign(refs, mainRefs);
}, 300_000);

afterAll(async () => {
  await Promise.all([tenant?.close(), other?.close()]);
});

describe('retention of device users, legal holds, support access, transfer runs and migrations', () => {
  it('writes each record\'s marker where it ends, counted from that end; none for what has not ended', async () => {
    const { client, deps } = tenant;
    const only = async (key: ItemKey) => (await markersOf(deps, key)).map((marker) => [marker.record_type, marker.stage]);
    expect(await only(keyOf.user(client, 'gone'))).toEqual([['DeviceUserData', 'LIVE']]);
    expect(await only(keyOf.hold(client, 'gone'))).toEqual([['LegalHoldData', 'LIVE']]);
    expect(await only(keyOf.support(client, refs.rejected))).toEqual([['SupportAccessData', 'LIVE']]);
    expect(await only(keyOf.migration(client, refs.migration))).toEqual([['LegacyMigrationData', 'LIVE']]);
    expect(await only(keyOf.transfer(client, refs.transfer))).toEqual([['TransferableData', 'LIVE']]);
    // Each counts from its own end.
    const user = await deps.table.get(keyOf.user(client, 'gone'));
    expect((await markersOf(deps, keyOf.user(client, 'gone')))[0]?.base_time).toBe(user?.offboard_date);
    const migration = await deps.table.get(keyOf.migration(client, refs.migration));
    expect((await markersOf(deps, keyOf.migration(client, refs.migration)))[0]?.base_time).toBe(migration?.migrated_at);
    const transfer = await deps.table.get(keyOf.transfer(client, refs.transfer));
    expect((await markersOf(deps, keyOf.transfer(client, refs.transfer)))[0]?.base_time).toBe(transfer?.completed_at);
    // Not ended: an onboarded user, an active hold, a pending request, a Pending migration, a running transfer; and a
    // user onboarded again lost the marker its offboarding put.
    for (const key of [
      keyOf.user(client, 'staying'),
      keyOf.user(client, 'back'),
      keyOf.hold(client, 'held'),
      keyOf.support(client, refs.pending),
      keyOf.migration(client, refs.pendingMigration),
      keyOf.transfer(client, refs.runningTransfer),
    ]) {
      expect(await only(key)).toEqual([]);
    }
  });

  it('marks a transfer failed because its job could not be started, as run now and re-run fail it', async () => {
    const { client, deps } = other;
    const transfer = readTransfer(
      transferToItem({ client, transfer_id: ulid(), transfer_config_reference: 'nightly', transfer_type: 'Payload', created_at: new Date().toISOString(), transfer_state: 'Pending', transfers: [], related_payloads: [], payload_count: 0, started_by: 'someone' }),
    );
    await deps.table.put(transferToItem(transfer));
    await failUnstarted(deps, transfer, 'The transfer job could not be started');
    const failed = await deps.table.get(keyOf.transfer(client, transfer.transfer_id), { consistent: true });
    expect(failed?.transfer_state).toBe('Failed');
    expect((await markersOf(deps, keyOf.transfer(client, transfer.transfer_id))).map((marker) => [marker.record_type, marker.stage, marker.base_time])).toEqual([
      ['TransferableData', 'LIVE', failed?.completed_at],
    ]);
  });

  it('puts a missing marker back with the backfill, and previews the new types', async () => {
    const { client, deps } = tenant;
    // The first backfill indexes the audit trails' records of this test's calls; the second puts back the one removed.
    await invoke(deps, { client, backfill: true });
    const [marker] = await markersOf(deps, keyOf.hold(client, 'gone'));
    await deps.table.delete({ pk: `${keyOf.hold(client, 'gone').pk}#RETAIN`, sk: `at#${keyOf.hold(client, 'gone').sk}` });
    const backfill = await invoke(deps, { client, backfill: true });
    expect(backfill.result.indexed).toBe(1);
    expect(await markersOf(deps, keyOf.hold(client, 'gone'))).toEqual([marker]);

    const policy = Object.fromEntries(TYPES.map((type) => [type, { delete_after_days: 0 }]));
    const answer = await tenant.call('POST', '/account/retention/preview', tenant.admin, policy);
    expect(answer.status).toBe(200);
    const rows = RetentionPreview.parse(answer.body).rows;
    const deleted = (type: string) => rows.find((row) => row.record_type === type)?.proposed.deleted.count;
    // Offboarded: gone, held, equipped; the run deletes gone and keeps the held (legal hold) and the equipped (still
    // in use), and the preview says so. Released holds: gone's.
    expect([deleted('DeviceUserData'), deleted('LegalHoldData'), deleted('SupportAccessData'), deleted('TransferableData'), deleted('LegacyMigrationData')]).toEqual([1, 1, 1, 1, 1]);
    expect(rows.find((row) => row.record_type === 'DeviceUserData')?.proposed.kept.map((kept) => [kept.reason, kept.instead_of, kept.count]).sort()).toEqual([
      ['in_use', 'Deleted', 1],
      ['legal_hold', 'Deleted', 1],
    ]);
    expect(rows.find((row) => row.record_type === 'DeviceUserData')?.current.deleted.count).toBe(0);
  });

  it('deletes what has ended, once, with a disposal record each; leaves the rest, the held and the equipped', async () => {
    const { client, deps } = tenant;
    // Stray markers on records that have not ended (as a wrong backfill would leave): the job must not act on them.
    const stray = (key: ItemKey, recordType: RetentionDueItem['record_type'], reference: string) =>
      deps.table.put(retentionDueToItem({ client, record_type: recordType, kind: 'at', stage: 'LIVE', base_time: '2020-01-01T00:00:00.000Z', record_pk: key.pk, record_sk: key.sk, reference }));
    await stray(keyOf.transfer(client, refs.runningTransfer), 'TransferableData', refs.runningTransfer);
    await stray(keyOf.support(client, refs.pending), 'SupportAccessData', refs.pending);
    await stray(keyOf.user(client, 'staying'), 'DeviceUserData', 'staying');
    const before = await dashboard(tenant);

    // Two runs at once: each record is deleted once.
    await Promise.all([runToEnd(deps, { client, now: DELETE_AT }), runToEnd(deps, { client, now: DELETE_AT })]);

    const state = async (key: ItemKey) => (await deps.table.get(key, { consistent: true }))?.retention_state;
    expect(await state(keyOf.user(client, 'gone'))).toBe('Deleted');
    expect(await state(keyOf.hold(client, 'gone'))).toBe('Deleted');
    expect(await state(keyOf.support(client, refs.rejected))).toBe('Deleted');
    expect(await state(keyOf.migration(client, refs.migration))).toBe('Deleted');
    expect(await state(keyOf.transfer(client, refs.transfer))).toBe('Deleted');
    for (const key of [keyOf.user(client, 'held'), keyOf.user(client, 'equipped'), keyOf.user(client, 'staying'), keyOf.hold(client, 'held'), keyOf.support(client, refs.pending), keyOf.transfer(client, refs.runningTransfer)]) {
      expect(await state(key)).toBeUndefined();
    }
    expect((await getRequest(deps.table, client, refs.pending))?.approval_state).toBe('pending');
    expect((await deps.table.get(keyOf.transfer(client, refs.runningTransfer)))?.transfer_state).toBe('InProgress');
    // The held user's marker is parked under its hold (its release puts it back); the equipped one's waits in place.
    expect((await markersOf(deps, keyOf.user(client, 'held'))).map((marker) => marker.stage)).toEqual(['HELD']);
    expect((await markersOf(deps, keyOf.user(client, 'equipped'))).map((marker) => marker.stage)).toEqual(['LIVE']);

    const disposals = await allDisposals(deps, client);
    expect(disposals.map((one) => `${one.record_type} ${one.reference} ${one.action}`).sort()).toEqual(
      [
        'DeviceUserData gone Deleted',
        'LegalHoldData DeviceUser/gone Deleted',
        `SupportAccessData ${refs.rejected} Deleted`,
        `LegacyMigrationData ${refs.migration} Deleted`,
        `TransferableData ${refs.transfer} Deleted`,
      ].sort(),
    );
    // The deleted user left the dashboard's offboarded count; licences (onboarded users only) did not move.
    expect(Number((await dashboard(tenant)).usr_offboarded)).toBe(Number(before.usr_offboarded) - 1);
    expect(Number((await dashboard(tenant)).usr_onboarded)).toBe(Number(before.usr_onboarded));

    // Deleted records leave their lists and totals.
    const listed = async (path: string, field: string) => ((await tenant.call('GET', path, tenant.admin)).body.data as Array<Record<string, unknown>>).map((one) => one[field]);
    const users = await listDeviceUsers(adminCaller(deps, client, 'deviceUsers:List'), { limit: 100 } as never);
    const listedUsers = ('data' in users ? users.data : []).map((user) => user.device_user_reference);
    expect(listedUsers).not.toContain('gone');
    expect(listedUsers).toContain('held');
    expect(await listed('/account/legal_holds', 'target')).toEqual(['held']);
    expect(await listed('/migrations', 'migration_reference')).toEqual([refs.pendingMigration]);
    expect(await listed('/transfers', 'transfer_id')).toEqual([refs.runningTransfer]);
  });

  it('destroys them a run later: personal fields gone, the device user kept by reference, parts removed in batches', async () => {
    const { client, deps } = tenant;
    const resultsPartition = keys.migrationResult.list(client, refs.migration).partition;
    const filesPartition = keys.transferFile.list(client, refs.transfer).partition;
    expect(await countOf(deps, resultsPartition)).toBe(RESULTS);

    // Invocation by invocation, continuing after every page of 250 (budget 0), as a long run in AWS would.
    const seen: number[] = [];
    let next: Record<string, unknown> | undefined = { client, now: DESTROY_AT, batch: 250, budget_ms: 0 };
    let invocations = 0;
    while (next !== undefined) {
      invocations += 1;
      next = (await invoke(deps, next)).next;
      seen.push(await countOf(deps, resultsPartition));
    }
    // The results went a page (250) at a time, over several invocations, and are all gone.
    expect(seen.at(-1)).toBe(0);
    const partial = seen.filter((count) => count > 0 && count < RESULTS);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(partial.every((count) => (RESULTS - count) % 250 === 0)).toBe(true);
    expect(invocations).toBeGreaterThan(partial.length);
    expect(await countOf(deps, filesPartition)).toBe(0);

    // The migration and the transfer run are gone, with their markers and the export file.
    expect(await deps.table.get(keyOf.migration(client, refs.migration), { consistent: true })).toBeUndefined();
    expect(await deps.table.get(keyOf.transfer(client, refs.transfer), { consistent: true })).toBeUndefined();
    expect((await deps.table.query({ partition: `${keyOf.migration(client, refs.migration).pk}#RETAIN`, consistent: true })).items.filter((item) => item.record_sk === keyOf.migration(client, refs.migration).sk)).toEqual([]);
    expect(await deps.blobs.destroy('raw', migrationObjectKey(client, refs.migration))).toBe(false);
    // The support request and the released hold are removed whole.
    expect(await deps.table.get(keyOf.support(client, refs.rejected), { consistent: true })).toBeUndefined();
    expect(await deps.table.get(keyOf.hold(client, 'gone'), { consistent: true })).toBeUndefined();
    // The device user keeps its reference (recordings and the trails name it), without the person's fields.
    const user = await deps.table.get(keyOf.user(client, 'gone'), { consistent: true });
    expect(user).toMatchObject({ device_user_reference: 'gone', retention_state: 'Destroyed', group: 'team', is_active: false });
    expect([user?.email, user?.first_name, user?.surname]).toEqual([undefined, undefined, undefined]);
    expect(await markersOf(deps, keyOf.user(client, 'gone'))).toEqual([]);

    const destroyed = (await allDisposals(deps, client)).filter((one) => one.action === 'Destroyed');
    expect(destroyed.map((one) => `${one.record_type} ${one.reference}`).sort()).toEqual(
      ['DeviceUserData gone', 'LegalHoldData DeviceUser/gone', `SupportAccessData ${refs.rejected}`, `LegacyMigrationData ${refs.migration}`, `TransferableData ${refs.transfer}`].sort(),
    );
    // Still untouched: the held and the equipped user.
    for (const reference of ['held', 'equipped']) expect((await deps.table.get(keyOf.user(client, reference)))?.email).toBe(`${reference}@example.com`);
  });

  it('disposes of a device user once its hold is released and its device deactivated; onboarding brings it back', async () => {
    const { client, deps } = tenant;
    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/held', tenant.admin)).status).toBe(200);
    await deps.table.update(keys.device.key(client, 'dev-eq'), { set: { is_deactivated: true } });
    await runToEnd(deps, { client, now: DELETE_AT });
    for (const reference of ['held', 'equipped']) expect((await deps.table.get(keyOf.user(client, reference)))?.retention_state).toBe('Deleted');

    // Onboarded again, a deleted user is live again, off the due index, and counted once as onboarded.
    const before = await dashboard(tenant);
    await onboardDeviceUser(adminCaller(deps, client, 'deviceUsers:Create'), 'held', userRequest('held'));
    expect((await deps.table.get(keyOf.user(client, 'held'), { consistent: true }))?.retention_state).toBeUndefined();
    expect(await markersOf(deps, keyOf.user(client, 'held'))).toEqual([]);
    const after = await dashboard(tenant);
    expect([Number(after.usr_onboarded) - Number(before.usr_onboarded), Number(after.usr_offboarded) - Number(before.usr_offboarded)]).toEqual([1, 0]);
  });

  it('leaves another tenant\'s records and markers alone', async () => {
    const { client, deps } = other;
    for (const key of [keyOf.user(client, 'gone'), keyOf.hold(client, 'gone'), keyOf.support(client, otherRefs.rejected), keyOf.migration(client, otherRefs.migration), keyOf.transfer(client, otherRefs.transfer)]) {
      const item = await deps.table.get(key, { consistent: true });
      expect(item).toBeDefined();
      expect(item?.retention_state).toBeUndefined();
      expect((await markersOf(deps, key)).map((marker) => marker.stage)).toEqual(['LIVE']);
    }
    expect(await countOf(deps, keys.migrationResult.list(client, otherRefs.migration).partition)).toBe(3);
    expect(await allDisposals(deps, client)).toEqual([]);
  });
});
