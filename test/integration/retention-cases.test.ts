import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependencies } from '#core/dependencies.ts';
import type { ItemKey } from '#core/ports/table-store.ts';
import { readDisposal, type DisposalItem } from '#core/store/entities/disposal.ts';
import { productionKeys, productionToItem } from '#core/store/entities/production.ts';
import { readRetentionDue } from '#core/store/entities/retention-due.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { reserveControlBlock } from '../../lambdas/cases/productions/control-numbers.ts';
import { retentionJob } from '../../lambdas/account-data/retention/retention-job.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Closed cases under retention (record type CaseData, docs/cases.md "Records and retention"), on the local stack: the
 * closing writes the case's due marker; the job deletes a closed case past its delete period (it and its production log
 * leave every read, list and count) and later destroys it (its productions, their download package, its seats and its
 * control-number counter with it), with a disposal record each; an open case is never disposed of; a closed case whose
 * custodian is under someone else's hold follows its own period; a closed case whose own hold is still Active on it
 * (its release unfinished) is kept.
 */
let tenant: RunTenant;
let deps: Dependencies;
let officer: string;

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const DELETE_AT = at(10);
const DESTROY_AT = at(2000);
const refs = { closed: '', open: '', unfinished: '', production: '' };
let downloadKey = '';

const opening = (title: string, custodian: string) => ({
  title,
  custodians: { device_users: [custodian], portal_users: [] },
  period: { from: '2026-04-01T00:00:00Z', to: '2026-04-30T23:59:59Z' },
  payload_types: ['Call'],
  team: ['dana'],
});

async function open(title: string, custodian: string): Promise<string> {
  const opened = await tenant.call('POST', '/cases', officer, opening(title, custodian));
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  return String(opened.body.case_ref);
}

const markersOf = async (key: ItemKey) =>
  (await deps.table.query({ partition: `${key.pk}#RETAIN`, sort: { beginsWith: 'at#' }, consistent: true })).items.map(readRetentionDue).filter((marker) => marker.record_sk === key.sk);

async function disposalsOf(reference: string): Promise<DisposalItem[]> {
  const found: DisposalItem[] = [];
  for await (const page of eachPage(deps.table, keys.disposal.list(tenant.client), 1000)) found.push(...page.map(readDisposal));
  return found.filter((disposal) => disposal.reference === reference);
}

/** The job run to its end at `now` (its continuations run in turn). */
async function runJob(now: string): Promise<void> {
  let next: Record<string, unknown> | undefined = { client: tenant.client, now };
  while (next !== undefined) {
    const starts: Array<Record<string, unknown>> = [];
    await retentionJob({ ...deps, jobs: { start: async (_job, input) => void starts.push(input) } }, next);
    next = starts[0];
  }
}

beforeAll(async () => {
  tenant = await createRunTenant('retcase');
  deps = tenant.deps;
  const { client } = tenant;
  const now = new Date().toISOString();
  for (const user of ['alice', 'bob']) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: now });
  }
  for (const sub of ['officer', 'dana']) await deps.table.put(portalUserItem({ sub, email: `${sub}@example.com`, client, roles: ['admin'] }, now, 'seed') as never);
  officer = await portalTokenFor(client, { sub: 'officer', email: 'officer@example.com', groups: ['admin'] });
  // Someone else's hold on alice, the closed case's custodian.
  expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/alice', tenant.admin, {})).status).toBe(200);
  expect((await tenant.applied('PUT', '/account/retention', tenant.admin, { CaseData: { delete_after_days: 1, destroy_after_days: 1000 } })).status).toBe(200);

  refs.closed = await open('Closed enquiry', 'alice');
  refs.open = await open('Open enquiry', 'bob');
  refs.unfinished = await open('Closed, release unfinished', 'bob');
  // The closed case's production log: one production delivered as a download, its package stored, its numbers taken.
  refs.production = ulid();
  downloadKey = `productions/${client}/${refs.production}/${refs.production}.zip`;
  await deps.blobs.put('processed', downloadKey, Buffer.from('a production package'));
  await reserveControlBlock(deps, client, refs.closed, 3);
  await deps.table.put(
    productionToItem({
      client,
      production_reference: refs.production,
      production_kind: 'Case',
      case_reference: refs.closed,
      criteria: { custodians: ['alice'], from: '2026-04-01T00:00:00.000Z', to: '2026-04-30T23:59:59.000Z', payload_types: ['Call'] },
      control_prefix: 'ABC',
      destination: { type: 'Download' },
      production_state: 'Succeeded',
      documents_total: 3,
      documents_done: 3,
      failures: [],
      control_first: 'ABC00000001',
      control_last: 'ABC00000003',
      delivered_files: [`${refs.production}.zip`],
      created_at: now,
      created_by: 'officer',
      scope_payload_types: ['Call'],
      download_key: downloadKey,
      download_name: `${refs.production}.zip`,
    }),
  );
  for (const caseRef of [refs.closed, refs.unfinished]) expect((await tenant.call('POST', `/cases/${caseRef}/close`, officer)).status).toBe(200);
  // A closing whose release of the case's own hold did not finish: the case still records the hold Active.
  await deps.table.update(keys.case.key(client, refs.unfinished), { set: { holds: [{ target_type: 'DeviceUser', target: 'bob', placed_at: now, state: 'Active' }] } });
}, 180_000);

afterAll(async () => {
  await tenant?.close();
});

describe('retention of closed cases (CaseData)', () => {
  it('writes the marker with the closing, counted from it; none for an open case', async () => {
    const closed = await deps.table.get(keys.case.key(tenant.client, refs.closed), { consistent: true });
    const markers = await markersOf(keys.case.key(tenant.client, refs.closed));
    expect(markers.map((marker) => [marker.record_type, marker.stage, marker.base_time])).toEqual([['CaseData', 'LIVE', new Date(String(closed?.closed_at)).toISOString()]]);
    expect(await markersOf(keys.case.key(tenant.client, refs.open))).toEqual([]);
  });

  it('deletes a closed case past its period with a disposal record: it and its production log leave every read, list and count', async () => {
    await runJob(DELETE_AT);
    const [deleted, ...more] = await disposalsOf(refs.closed);
    expect(more).toEqual([]);
    expect(deleted).toMatchObject({ record_type: 'CaseData', action: 'Deleted', policy: { delete_after_days: 1 } });
    const stored = await deps.table.get(keys.case.key(tenant.client, refs.closed), { consistent: true });
    expect(stored).toMatchObject({ retention_state: 'Deleted', state: 'Closed' });
    for (const token of [officer, await portalTokenFor(tenant.client, { sub: 'dana', email: 'dana@example.com', groups: ['admin'] })]) {
      expect((await tenant.call('GET', `/cases/${refs.closed}`, token)).status).toBe(404);
      expect((await tenant.call('POST', `/cases/${refs.closed}/close`, token)).status).toBe(404);
      const listed = await tenant.call('GET', '/cases?limit=100', token);
      expect((listed.body.data as Array<{ case_ref: string }>).map((entry) => entry.case_ref).sort()).toEqual([refs.open, refs.unfinished].sort());
      expect((await tenant.call('GET', `/productions/${refs.production}`, token)).status).toBe(404);
      expect((await tenant.call('GET', `/productions/${refs.production}/download`, token)).status).toBe(404);
      expect((await tenant.call('GET', `/productions?case_ref=${refs.closed}`, token)).status).toBe(404);
      expect((await tenant.call('GET', '/productions?result_type=total', token)).body).toEqual({ count: 0 });
    }
    // The log and the package are still kept (deleted, not destroyed).
    expect(await deps.table.get(productionKeys.key(tenant.client, refs.production), { consistent: true })).toBeDefined();
    expect(await deps.blobs.head('processed', downloadKey)).toBeDefined();
  }, 120_000);

  it("follows its own period while its custodian is under someone else's hold, which it leaves in force", async () => {
    const hold = await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser&limit=100', tenant.admin);
    expect((hold.body.data as Array<{ target: string; is_active: boolean }>).find((entry) => entry.target === 'alice')?.is_active).toBe(true);
    expect((await disposalsOf(refs.closed)).map((disposal) => disposal.action)).toEqual(['Deleted']);
  });

  it('never disposes of an open case, nor a closed one whose own hold is still Active on it', async () => {
    for (const caseRef of [refs.open, refs.unfinished]) {
      expect(await disposalsOf(caseRef)).toEqual([]);
      expect((await tenant.call('GET', `/cases/${caseRef}`, officer)).status).toBe(200);
    }
    expect((await markersOf(keys.case.key(tenant.client, refs.unfinished))).map((marker) => marker.stage)).toEqual(['LIVE']);
  });

  it('destroys the deleted case later with a disposal record: its productions and their package, seats and counter go with it', async () => {
    // The destroying run marks it and its purge begins; the next run walks its productions and finishes it.
    await runJob(DESTROY_AT);
    await runJob(DESTROY_AT);
    const actions = (await disposalsOf(refs.closed)).map((disposal) => disposal.action).sort();
    expect(actions).toEqual(['Deleted', 'Destroyed']);
    const { client } = tenant;
    expect(await deps.table.get(keys.case.key(client, refs.closed), { consistent: true })).toBeUndefined();
    expect(await deps.table.get(productionKeys.key(client, refs.production), { consistent: true })).toBeUndefined();
    expect(await deps.blobs.head('processed', downloadKey)).toBeUndefined();
    for (const seat of ['officer', 'dana']) expect(await deps.table.get(keys.case.seatKey(client, seat, refs.closed), { consistent: true })).toBeUndefined();
    expect(await deps.table.get(productionKeys.controlCounter(client, refs.closed), { consistent: true })).toBeUndefined();
    expect(await markersOf(keys.case.key(client, refs.closed))).toEqual([]);
    // The others are as they were.
    for (const caseRef of [refs.open, refs.unfinished]) {
      expect(await disposalsOf(caseRef)).toEqual([]);
      expect((await tenant.call('GET', `/cases/${caseRef}`, officer)).status).toBe(200);
    }
  }, 180_000);
});
