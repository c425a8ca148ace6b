import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableStore, TransactOperation } from '#core/ports/table-store.ts';
import { completenessCounterAttribute, completenessCounterKeys } from '#core/store/entities/completeness-counters.ts';
import { readDisposal, type DisposalItem } from '#core/store/entities/disposal.ts';
import { awaitingEntryToItem } from '#core/store/entities/awaiting-entry.ts';
import { ledgerEntryToItem, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { readRetentionDue } from '#core/store/entities/retention-due.ts';
import { readRetentionPolicy, retentionPolicyKey, retentionPolicyToItem } from '#core/store/entities/retention-policy.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import type { LedgerOutcome } from '#shared/constants/completeness.ts';
import { dueMarkerPuts } from '../../lambdas/account-data/public.ts';
import { retentionRunTo } from './support/retention-run.ts';
import { rulesOf } from '../../lambdas/account-data/retention/retention-rules.ts';
import { deviceKeysOf } from '../../lambdas/device-crypto/public.ts';
import { enrol, sealedUpload, type Simulator } from '../../scripts/device/simulator.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { stack } from './support/stack.ts';

/**
 * The phones' capture ledger entries as records (retention record type CaptureLedgerData), on the local stack in
 * tenants of this run: the policy answers the type at the calls' periods (also to a tenant whose policy was stored
 * before the type existed); the retention job deletes a settled entry past its period with a disposal record (out of
 * its lists), destroys it a run later with another, keeps a Pending one, keeps those a legal hold on their device
 * user (or on their device's holder) covers until the hold is released, never moves the per-day counts, and fails
 * rather than dispose of an entry whose disposal record cannot be written. A destroyed recording takes its
 * awaiting-entry marker (not a record of its own) with it.
 */
let tenant: RunTenant;
let fresh: RunTenant;

beforeAll(async () => {
  [tenant, fresh] = await Promise.all([createRunTenant('retledger'), createRunTenant('retledger-pol')]);
});
afterAll(async () => {
  await Promise.all([tenant.close(), fresh.close()]);
});

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const START = new Date(Date.now() - 3_600_000).toISOString();
const TODAY = START.slice(0, 10);

/**
 * An entry as the ledger intake stores it: the entry (conditional on being new), its retention marker and its
 * counts on the tenant's day, in one transaction.
 */
async function storeEntry(run: RunTenant, fields: { device: string; id: string; user?: string; outcome: LedgerOutcome }): Promise<LedgerEntryItem> {
  const entry: LedgerEntryItem = {
    entry_id: fields.id,
    payload_type: 'Call',
    phone_number: '+44 7700 900123',
    direction: 'O',
    start_time: START,
    duration: 65,
    device_reference: fields.device,
    ...(fields.user === undefined ? {} : { device_user_reference: fields.user, group: 'north' }),
    outcome: fields.outcome,
    reported_at: START,
    outcome_at: START,
    due_at: new Date(Date.parse(START) + DAY).toISOString(),
    day: TODAY,
  };
  const item = ledgerEntryToItem(run.client, entry);
  const counts = { [completenessCounterAttribute('Call', 'expected')]: 1, [completenessCounterAttribute('Call', fields.outcome === 'Captured late' ? 'captured_late' : (fields.outcome.toLowerCase() as 'captured'))]: 1 };
  await run.deps.table.transactWrite([
    { kind: 'put', item, condition: { kind: 'item-not-exists' } },
    ...dueMarkerPuts(run.client, item),
    { kind: 'update', key: completenessCounterKeys.tenantDay(run.client, TODAY), update: { add: counts } },
  ]);
  return entry;
}

const entryKey = (run: RunTenant, entry: LedgerEntryItem) => keys.ledgerEntry.key(run.client, entry.device_reference, entry.entry_id);
const stored = (run: RunTenant, entry: LedgerEntryItem) => run.deps.table.get(entryKey(run, entry), { consistent: true });
const referenceOf = (entry: LedgerEntryItem) => `${entry.device_reference}/${entry.entry_id}`;

/** Where the entry's retention marker is: its record type and stage (HELD: parked under a hold). */
async function markerOf(run: RunTenant, entry: LedgerEntryItem): Promise<[string, string] | undefined> {
  const marker = await run.deps.table.get(keys.retentionDue.key(run.client, entryKey(run, entry), 'at'), { consistent: true });
  if (marker === undefined) return undefined;
  const due = readRetentionDue(marker);
  return [due.record_type, due.stage];
}

/** The entry references of a device's time list and of an outcome's list (matching reads the first). */
async function listed(run: RunTenant, device: string, outcome: LedgerOutcome): Promise<{ device: string[]; outcome: string[] }> {
  const ids = async (query: Parameters<TableStore['query']>[0]) => (await run.deps.table.query(query)).items.map((item) => `${String(item.device_reference)}/${String(item.entry_id)}`);
  return { device: await ids(keys.ledgerEntry.listByDevice(run.client, device)), outcome: await ids(keys.ledgerEntry.listByOutcome(run.client, outcome)) };
}

async function disposalsOf(run: RunTenant, reference: string): Promise<DisposalItem[]> {
  const found: DisposalItem[] = [];
  for await (const page of eachPage(run.deps.table, keys.disposal.list(run.client), 1000)) found.push(...page.map(readDisposal).filter((disposal) => disposal.reference === reference));
  return found;
}

const tenantCounts = async (run: RunTenant): Promise<Record<string, number>> => {
  const item = await run.deps.table.get(completenessCounterKeys.tenantDay(run.client, TODAY), { consistent: true });
  return Object.fromEntries(Object.entries(item ?? {}).filter((pair): pair is [string, number] => pair[0].startsWith('Call#') && typeof pair[1] === 'number'));
};

describe('capture ledger entries in the retention policy', () => {
  it('answers CaptureLedgerData at the calls\' periods, also to a tenant whose policy was stored before the type existed', async () => {
    const answer = await fresh.call('GET', '/account/retention', fresh.admin);
    expect(answer.status).toBe(200);
    const policy = RetentionPolicy.parse(answer.body);
    const call = policy.PayloadData?.find((entry) => entry.payload_type === 'Call');
    expect(call).toMatchObject({ delete_after_days: 2557, destroy_after_days: 2647, retention_timestamp: 'payload_time' });
    expect(policy.CaptureLedgerData).toEqual({ delete_after_days: call?.delete_after_days, destroy_after_days: call?.destroy_after_days });

    // A policy stored before the type existed (as every stored policy was): the type reads at its default, not blank.
    expect((await fresh.applied('PUT', '/account/retention', fresh.admin, { GpsData: { delete_after_days: 30, destroy_after_days: 60 } })).status).toBe(200);
    const item = await fresh.deps.table.get(retentionPolicyKey(fresh.client), { consistent: true });
    const { CaptureLedgerData: stored, ...before } = readRetentionPolicy(item!);
    expect(stored).toEqual({ delete_after_days: 2557, destroy_after_days: 2647 });
    await fresh.deps.table.put(retentionPolicyToItem(fresh.client, before));
    const read = await fresh.call('GET', '/account/retention', fresh.admin);
    expect(read.body).toMatchObject({ CaptureLedgerData: { delete_after_days: 2557, destroy_after_days: 2647 }, GpsData: { delete_after_days: 30, destroy_after_days: 60 } });
    // The preview counts it in a row of its own.
    const preview = await fresh.call('POST', '/account/retention/preview', fresh.admin, { CaptureLedgerData: { delete_after_days: 1 } });
    expect(preview.status).toBe(200);
    expect((preview.body.rows as Array<{ record_type: string }>).filter((row) => row.record_type === 'CaptureLedgerData')).toHaveLength(1);
    // And the job reads the same rule.
    expect(rulesOf(before).find((rule) => rule.recordType === 'CaptureLedgerData')).toMatchObject({ deleteAfterDays: 2557, destroyAfterDays: 2647, kind: 'at' });
  });
});

describe('a destroyed recording\'s awaiting-entry marker', () => {
  it('goes in the recording\'s destruction, not at its deletion, and only its own', async () => {
    const { client, deps } = fresh;
    expect((await fresh.applied('PUT', '/account/retention', fresh.admin, { PayloadData: [{ payload_type: 'Call', delete_after_days: 1, destroy_after_days: 1000 }] })).status).toBe(200);
    const recording = async (reference: string, payloadType: string, time: string) => {
      const payload = {
        ...keys.payload.item(client, { payloadReference: reference, payloadTime: time, deviceReference: 'dev-1', deviceUserReference: 'du-1' }),
        client,
        payload_reference: reference,
        payload_type: payloadType,
        payload_state: 'Processed',
        device_reference: 'dev-1',
        device_user_reference: 'du-1',
        payload_time: time,
        processed_at: time,
        checksum: '0'.repeat(64),
        updated_at: time,
      };
      const marker = awaitingEntryToItem(client, {
        payload_reference: reference,
        payload_type: 'Call',
        payload_time: time,
        device_reference: 'dev-1',
        direction: 'O',
        numbers: ['447700900123'],
        uploaded_at: time,
        device_user_reference: 'du-1',
        unexpected: true,
        unexpected_at: time,
        day: time.slice(0, 10),
      });
      await deps.table.transactWrite([{ kind: 'put', item: payload }, ...dueMarkerPuts(client, payload), { kind: 'put', item: marker }]);
      return { payload, marker };
    };
    const old = await recording('P-OLD', 'Call', START);
    // Recorded ten days on: the last run below deletes it but does not destroy it yet, so its marker stays.
    const recent = await recording('P-RECENT', 'Call', at(10));
    const markerOfRecording = (made: { marker: { pk: string; sk: string } }) => deps.table.get({ pk: made.marker.pk, sk: made.marker.sk }, { consistent: true });

    await retentionRunTo(deps, client, at(10));
    expect(await deps.table.get(keys.payload.key(client, 'P-OLD'), { consistent: true })).toMatchObject({ payload_state: 'Deleted' });
    expect(await markerOfRecording(old)).toBeDefined();
    await retentionRunTo(deps, client, at(2000));
    expect(await deps.table.get(keys.payload.key(client, 'P-OLD'), { consistent: true })).toMatchObject({ payload_state: 'Destroyed' });
    // The marker held the recording's parties' numbers: gone with them.
    expect(await markerOfRecording(old)).toBeUndefined();
    expect(await deps.table.get(keys.payload.key(client, 'P-RECENT'), { consistent: true })).toMatchObject({ payload_state: 'Deleted' });
    expect(await markerOfRecording(recent)).toBeDefined();
  }, 120_000);
});

describe('retention of capture ledger entries (CaptureLedgerData)', () => {
  it('puts each entry a phone reports on the due index as the intake stores it, counted from the call\'s start', async () => {
    const { client, deps } = tenant;
    const number = `07${String(Date.now()).slice(-9)}`;
    await deps.table.put({ ...keys.deviceUser.item(client, 'du-phone', 'north'), client, device_user_reference: 'du-phone', group: 'north', services: ['calls'], expected_device_count: 1, is_active: true, is_legacy: false });
    await deps.table.put({ ...keys.phoneNumber.item(client, number), client, phone_number: number, device_user_reference: 'du-phone' });
    const sim: Simulator = { baseUrl: stack().apiUrl, enrolmentKey: async (name) => (await deviceKeysOf(deps, name)).enrolmentKey };
    const { state, result } = await enrol(sim, { name: 'ledger-phone', client, phoneNumbers: [number], model: 'Pixel 8' });
    expect(result.status).toBe(200);
    const entry = { entry_id: 'log-41', payload_type: 'Call', phone_number: '+44 7700 900777', direction: 'I', start_time: START, duration: 30 };
    const sent = await sealedUpload<{ accepted: number }>(sim, state, 'ledger', { covered_to: new Date().toISOString(), entries: [entry] });
    expect(sent).toMatchObject({ status: 200, body: { accepted: 1 } });
    const marker = await deps.table.get(keys.retentionDue.key(client, keys.ledgerEntry.key(client, state.device_reference, 'log-41'), 'at'), { consistent: true });
    expect(marker === undefined ? undefined : readRetentionDue(marker)).toMatchObject({ record_type: 'CaptureLedgerData', reference: `${state.device_reference}/log-41`, base_time: START, stage: 'LIVE' });
  }, 120_000);

  it('deletes a settled entry past its period, then destroys it, each with a disposal record; keeps a Pending one and the held ones until released; never moves the counts', async () => {
    const { client, deps } = tenant;
    expect((await tenant.applied('PUT', '/account/retention', tenant.admin, { CaptureLedgerData: { delete_after_days: 1, destroy_after_days: 1000 } })).status).toBe(200);
    await deps.table.put({ ...keys.deviceUser.item(client, 'du-held', 'north'), client, device_user_reference: 'du-held', group: 'north', is_active: true, services: [], expected_device_count: 1, is_legacy: false });
    // A device du-held holds now: its entries are covered by du-held's hold whoever held it when they were stored.
    await deps.table.put({ ...keys.device.item(client, 'dev-held', 'du-held', 'north'), client, device_reference: 'dev-held', device_user_reference: 'du-held', group: 'north' });
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/du-held', tenant.admin, {})).status).toBe(200);

    const before = await tenantCounts(tenant);
    const free = await storeEntry(tenant, { device: 'dev-free', id: 'call-1', user: 'du-free', outcome: 'Missing' });
    const pending = await storeEntry(tenant, { device: 'dev-free', id: 'call-2', user: 'du-free', outcome: 'Pending' });
    const heldUser = await storeEntry(tenant, { device: 'dev-other', id: 'call-1', user: 'du-held', outcome: 'Captured' });
    const heldDevice = await storeEntry(tenant, { device: 'dev-held', id: 'call-1', outcome: 'Short' });
    for (const entry of [free, pending, heldUser, heldDevice]) expect(await markerOf(tenant, entry)).toEqual(['CaptureLedgerData', 'LIVE']);
    const counts = await tenantCounts(tenant);
    const added = Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, count - (before[name] ?? 0)]).filter(([, count]) => count !== 0));
    expect(added).toEqual({ 'Call#expected': 4, 'Call#missing': 1, 'Call#pending': 1, 'Call#captured': 1, 'Call#short': 1 });

    await retentionRunTo(deps, client, at(10));
    // Deleted: marked, out of its device's list (matching) and its outcome's, kept; one disposal record.
    expect(await stored(tenant, free)).toMatchObject({ retention_state: 'Deleted', entry_id: 'call-1', outcome: 'Missing' });
    expect(await listed(tenant, 'dev-free', 'Missing')).toEqual({ device: [referenceOf(pending)], outcome: [] });
    expect(await markerOf(tenant, free)).toEqual(['CaptureLedgerData', 'DELETED']);
    const [deletion] = await disposalsOf(tenant, referenceOf(free));
    expect(deletion).toMatchObject({ record_type: 'CaptureLedgerData', action: 'Deleted', policy: { delete_after_days: 1, destroy_after_days: 1000, base_time: START } });
    expect(deletion?.checksum).toMatch(/^[0-9a-f]{64}$/);
    // Pending: still being reconciled, not due. Held: untouched, their markers parked under the hold.
    expect((await stored(tenant, pending))?.retention_state).toBeUndefined();
    expect(await markerOf(tenant, pending)).toEqual(['CaptureLedgerData', 'LIVE']);
    for (const entry of [heldUser, heldDevice]) {
      expect((await stored(tenant, entry))?.retention_state, referenceOf(entry)).toBeUndefined();
      expect(await markerOf(tenant, entry)).toEqual(['CaptureLedgerData', 'HELD']);
      expect(await disposalsOf(tenant, referenceOf(entry))).toEqual([]);
    }

    await retentionRunTo(deps, client, at(2000));
    expect(await stored(tenant, free)).toBeUndefined();
    expect(await markerOf(tenant, free)).toBeUndefined();
    expect((await disposalsOf(tenant, referenceOf(free))).map((disposal) => disposal.action).sort()).toEqual(['Deleted', 'Destroyed']);
    for (const entry of [heldUser, heldDevice]) expect((await stored(tenant, entry))?.retention_state).toBeUndefined();
    // Counts are history: what the phones reported and what was captured, whatever retention disposed of since.
    expect(await tenantCounts(tenant)).toEqual(counts);

    // Released, the hold's walk puts the markers back; the next run deletes both.
    expect((await tenant.applied('DELETE', '/account/legal_holds/DeviceUser/du-held', tenant.admin)).status).toBe(200);
    for (const entry of [heldUser, heldDevice]) expect(await markerOf(tenant, entry)).toEqual(['CaptureLedgerData', 'LIVE']);
    await retentionRunTo(deps, client, at(10));
    for (const entry of [heldUser, heldDevice]) {
      expect((await stored(tenant, entry))?.retention_state, referenceOf(entry)).toBe('Deleted');
      expect((await disposalsOf(tenant, referenceOf(entry))).map((disposal) => disposal.action)).toEqual(['Deleted']);
    }
    expect(await tenantCounts(tenant)).toEqual(counts);
  }, 120_000);

  it('fails the disposal, and changes nothing, when the disposal record cannot be written; the next run disposes of it', async () => {
    const { client, deps } = tenant;
    const entry = await storeEntry(tenant, { device: 'dev-audit', id: 'sms-1', user: 'du-free', outcome: 'Captured' });
    const refusing: TableStore = {
      ...deps.table,
      transactWrite: async (operations: readonly TransactOperation[]) => {
        if (operations.some((operation) => operation.kind === 'put' && operation.item.entity === 'Disposal' && operation.item.record_type === 'CaptureLedgerData')) {
          throw Object.assign(new Error('Throughput exceeded'), { name: 'ProvisionedThroughputExceededException' });
        }
        return deps.table.transactWrite(operations);
      },
    };
    await expect(retentionRunTo({ ...deps, table: refusing }, client, at(10))).rejects.toThrow('Throughput exceeded');
    expect((await stored(tenant, entry))?.retention_state).toBeUndefined();
    expect(await markerOf(tenant, entry)).toEqual(['CaptureLedgerData', 'LIVE']);
    expect(await disposalsOf(tenant, referenceOf(entry))).toEqual([]);
    expect((await listed(tenant, 'dev-audit', 'Captured')).device).toEqual([referenceOf(entry)]);

    await retentionRunTo(deps, client, at(10));
    expect((await stored(tenant, entry))?.retention_state).toBe('Deleted');
    expect((await disposalsOf(tenant, referenceOf(entry))).map((disposal) => disposal.action)).toEqual(['Deleted']);
  }, 120_000);
});
