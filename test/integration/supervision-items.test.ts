import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import { jobActor } from '#core/auth/actor.ts';
import { keys } from '#core/store/keys.ts';
import { readAlert } from '#core/store/entities/alert.ts';
import { readUserActivity } from '#core/store/entities/user-activity.ts';
import { readDisposal } from '#core/store/entities/disposal.ts';
import { readRetentionDue } from '#core/store/entities/retention-due.ts';
import { eachPage, FILTER_BATCH } from '#core/store/paging.ts';
import { retentionRunTo } from './support/retention-run.ts';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import { measureCapacity } from '#core/ports/capacity-meter.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import type { Role } from '#shared/contract/entities/roles.ts';
import { listItems } from '../../lambdas/supervision/items/list-items.ts';
import { readReport } from '../../lambdas/supervision/reports/reports.ts';
import { recordHits } from '../../lambdas/supervision/public.ts';
import { overdueAlertKey, raiseTenantOverdueAlerts } from '../../lambdas/supervision/deadlines/overdue-alerts.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';

/**
 * The supervision review queue end to end on the local stack (DynamoDB Local, the local OIDC provider's keys): items
 * are raised through `recordHits` (what processing and the apply job call), then reviewed, listed, counted and
 * reported through the API as portal users of a tenant of this run: its admin, a reviewer whose role sees one group
 * only, and the supervised person herself (her portal e-mail is her device user's). A second run tenant sees nothing.
 */
let tenant: RunTenant;
let other: RunTenant;
let admin: string;
let scoped: string;
let supervised: string;
let otherAdmin: string;

const RAISER = jobActor('payload-processing');
const NORTH = 'north';
const SOUTH = 'south';
const hit = (policy: string, term: string): SupervisionHit => ({ policy_reference: policy, kind: 'Lexicon', term, field: 'text', matches: [{ start: 3, end: 3 + term.length }], raised_at: new Date().toISOString() });

/** A payload-reference-shaped reference of this run (26 characters, as ULIDs are). */
let counter = 0;
const reference = () => `01JSUP${tenant.client.slice(-10).toUpperCase().replace(/[^0-9A-Z]/g, '0')}${String(++counter).padStart(10, '0')}`;

async function raise(client: string, options: { group?: string; deviceUser?: string; hits?: SupervisionHit[]; reviewDays?: number; payloadTime?: string } = {}): Promise<string> {
  const ref = reference();
  const deps = client === tenant.client ? tenant.deps : other.deps;
  await recordHits(deps, client, {
    recording: {
      payload_reference: ref,
      payload_type: 'SMS',
      payload_time: options.payloadTime ?? new Date(Date.now() - 3_600_000).toISOString(),
      device_reference: 'dev-1',
      ...(options.deviceUser === undefined ? {} : { device_user_reference: options.deviceUser }),
      group: options.group ?? NORTH,
    },
    hits: options.hits ?? [hit('guarantees', 'guarantee')],
    reviewDays: options.reviewDays ?? 7,
    actor: RAISER,
  });
  return ref;
}

const call = (method: string, path: string, token: string, body?: unknown) => tenant.call(method, path, token, body);

beforeAll(async () => {
  tenant = await createRunTenant('sup');
  other = await createRunTenant('supx');
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  await deps.table.put({
    ...keys.role.item(client, 'north-reviewer'),
    client,
    role_reference: 'north-reviewer',
    permissions: [{ actions_matching: 'supervision:*', is_denied: false, is_regex: false, conditions: [{ names_matching: NORTH }] }],
    payload_types: ['SMS', 'Call'],
    cidr_ranges: [],
    alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
    updated_at: now,
  });
  await deps.table.put({ ...keys.deviceUser.item(client, 'du-sam', NORTH), client, device_user_reference: 'du-sam', group: NORTH, is_active: true, first_name: 'Sam', surname: 'Seller', email: `Sam@${client}.test`, services: [], expected_device_count: 1, is_legacy: false });
  await deps.table.put({ ...keys.portalUser.item(client, 'bob'), client, user_reference: 'bob', email: `bob@${client}.test`, first_name: 'Bob', surname: 'Boss', roles: ['admin'] });
  admin = await portalTokenFor(client, { sub: `${client}-admin`, email: `admin@${client}.test`, groups: ['admin'] });
  scoped = await portalTokenFor(client, { sub: 'north-reviewer-1', email: `north@${client}.test`, groups: ['north-reviewer'] });
  supervised = await portalTokenFor(client, { sub: 'sam', email: `sam@${client}.TEST`, groups: ['admin'] });
  otherAdmin = await portalTokenFor(other.client, { sub: `${other.client}-admin`, email: `admin@${other.client}.test`, groups: ['admin'] });
});

afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

type Body = Record<string, unknown> & { history?: Array<Record<string, unknown>>; data?: Array<Record<string, unknown>>; message?: string; count?: number };
const as = async (token: string, method: string, path: string, body?: unknown) => {
  const answer = await call(method, path, token, body);
  return { status: answer.status, body: answer.body as Body };
};

describe('the review queue', () => {
  it('walks every transition with its history, and refuses what does not apply with 409', async () => {
    const ref = await raise(tenant.client, { deviceUser: 'du-sam', hits: [hit('guarantees', 'guarantee'), hit('promises', 'promise')] });
    await raise(tenant.client, { deviceUser: 'du-sam' }); // another recording of the same person
    const put = (body: unknown, token = admin) => as(token, 'PUT', `/supervision/items/${ref}`, body);

    const fresh = await as(admin, 'GET', `/supervision/items/${ref}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ item_reference: ref, state: 'Open', device_user_name: 'Sam Seller', group: NORTH, is_overdue: false, item_version: 1 });
    expect((fresh.body.hits as unknown[]).length).toBe(2);
    expect(JSON.stringify(fresh.body)).not.toContain('text_body');

    expect((await put({ action: 'claim' })).body).toMatchObject({ state: 'Claimed', assignee: `${tenant.client}-admin` });
    expect(await put({ action: 'claim' }, scoped)).toMatchObject({ status: 409, body: { message: 'The item is claimed by someone else; release or assign it first' } });
    expect((await put({ action: 'release' })).body).toMatchObject({ state: 'Open' });
    expect(await put({ action: 'assign', assignee: 'nobody-here' })).toMatchObject({ status: 400, body: { message: 'body.assignee: No portal user "nobody-here" in this tenant' } });
    expect((await put({ action: 'assign', assignee: 'bob' })).body).toMatchObject({ state: 'Claimed', assignee: 'bob', assignee_actor: { reference: 'bob', name: 'Bob Boss' } });
    expect((await put({ action: 'escalate', note: 'Looks like a promise of returns' })).body).toMatchObject({ state: 'Escalated', assignee: 'bob' });
    expect(await put({ action: 'escalate' })).toMatchObject({ status: 409, body: { message: 'Cannot escalate an item that is Escalated' } });
    expect(await put({ action: 'close', disposition: 'Issue – reported' })).toMatchObject({ status: 400, body: { message: 'body.note: A note is required for any disposition but No issue' } });
    expect(await put({ action: 'close', disposition: 'No issue' }, supervised)).toMatchObject({ status: 403, body: { message: 'You cannot close a review of your own communications' } });
    const closed = await put({ action: 'close', disposition: 'Issue – reported', note: 'Reported to the principal' });
    expect(closed.body).toMatchObject({ state: 'Closed', disposition: 'Issue – reported', note: 'Reported to the principal', closed_by: `${tenant.client}-admin`, closed_by_actor: { email: `admin@${tenant.client}.test` } });
    expect(await put({ action: 'reopen' })).toMatchObject({ status: 400 });
    const reopened = await put({ action: 'reopen', note: 'New facts' });
    expect(reopened.body).toMatchObject({ state: 'Open', item_version: 7 });
    expect(reopened.body.disposition).toBeUndefined();

    const history = reopened.body.history ?? [];
    expect(history.map((entry) => [entry.event, entry.by, entry.from_state, entry.to_state, entry.disposition, entry.note, entry.assignee, entry.is_bulk])).toEqual([
      ['raise', 'job:payload-processing', undefined, 'Open', undefined, undefined, undefined, false],
      ['claim', `${tenant.client}-admin`, 'Open', 'Claimed', undefined, undefined, `${tenant.client}-admin`, false],
      ['release', `${tenant.client}-admin`, 'Claimed', 'Open', undefined, undefined, undefined, false],
      ['assign', `${tenant.client}-admin`, 'Open', 'Claimed', undefined, undefined, 'bob', false],
      ['escalate', `${tenant.client}-admin`, 'Claimed', 'Escalated', undefined, 'Looks like a promise of returns', undefined, false],
      ['close', `${tenant.client}-admin`, 'Escalated', 'Closed', 'Issue – reported', 'Reported to the principal', undefined, false],
      ['reopen', `${tenant.client}-admin`, 'Closed', 'Open', undefined, 'New facts', undefined, false],
    ]);
    expect(history[1]).toMatchObject({ by_actor: { reference: `${tenant.client}-admin`, kind: 'user', email: `admin@${tenant.client}.test` } });
    // Every history entry stays: the refused calls wrote none, and the item's partition holds exactly these seven.
    const stored = await tenant.deps.table.query({ ...keys.supervisionHistory.listByItem(tenant.client, ref), consistent: true });
    expect(stored.items.length).toBe(7);
  });

  it('records each change in the activity trail, naming the item', async () => {
    const ref = await raise(tenant.client);
    expect((await as(admin, 'PUT', `/supervision/items/${ref}`, { action: 'claim' })).status).toBe(200);
    const page = await tenant.deps.table.query({ ...keys.userActivity.list(tenant.client), descending: true, limit: 20 });
    const records = page.items.map(readUserActivity).filter((record) => record.action === 'supervision:ReviewItem' && record.parameters?.item_reference === ref);
    expect(records.length).toBe(1);
    expect(records[0]).toMatchObject({ is_allowed: true, status_code: 200, user_id: `${tenant.client}-admin` });
  });

  it('applies a bulk action per item, with a result for each and bulk history entries', async () => {
    const [a, b] = [await raise(tenant.client), await raise(tenant.client)];
    expect((await as(admin, 'PUT', `/supervision/items/${b}`, { action: 'close', disposition: 'No issue' })).status).toBe(200);
    const missing = reference();
    const bulk = await as(admin, 'PUT', '/supervision/items', { action: 'close', disposition: 'False positive', note: 'Disclaimer quoted', item_references: [a, b, missing] });
    expect(bulk).toMatchObject({ status: 200, body: { data: [{ reference: a, ok: true }, { reference: b, ok: false, message: 'Cannot close an item that is Closed' }, { reference: missing, ok: false, message: 'Review item not found' }] } });
    const detail = await as(admin, 'GET', `/supervision/items/${a}`);
    expect(detail.body.history?.at(-1)).toMatchObject({ event: 'close', is_bulk: true, disposition: 'False positive', note: 'Disclaimer quoted' });
    expect(await as(admin, 'PUT', '/supervision/items', { action: 'claim', item_references: [a, a] })).toMatchObject({ status: 400 });
    expect(await as(admin, 'PUT', '/supervision/items', { action: 'claim', item_references: [] })).toMatchObject({ status: 400 });
  });

  it('hides items of other groups from a group-limited reviewer in lists, totals and single reads', async () => {
    const north = await raise(tenant.client, { group: NORTH, hits: [hit('scope-check', 'guarantee')] });
    const south = await raise(tenant.client, { group: SOUTH, hits: [hit('scope-check', 'guarantee')] });
    const listed = await as(scoped, 'GET', '/supervision/items?policy_reference=scope-check');
    expect(listed.status).toBe(200);
    expect(listed.body.data?.map((item) => item.item_reference)).toEqual([north]);
    expect((await as(scoped, 'GET', '/supervision/items?policy_reference=scope-check&result_type=total')).body).toEqual({ count: 1 });
    expect((await as(admin, 'GET', '/supervision/items?policy_reference=scope-check&result_type=total')).body).toEqual({ count: 2 });
    const hidden = await as(scoped, 'GET', `/supervision/items/${south}`);
    const absent = await as(scoped, 'GET', `/supervision/items/${reference()}`);
    expect(hidden).toEqual(absent);
    expect(hidden.status).toBe(404);
    expect((await as(scoped, 'PUT', `/supervision/items/${south}`, { action: 'claim' })).status).toBe(404);
    const report = await as(scoped, 'GET', '/supervision/reports/outstanding');
    expect((report.body.rows as Array<Record<string, unknown>>).filter((row) => row.policy_reference === 'scope-check')).toEqual([
      expect.objectContaining({ open: 1, claimed: 0, escalated: 0, overdue: 0 }),
    ]);
  });

  it('gives another tenant nothing', async () => {
    const ref = await raise(tenant.client, { hits: [hit('isolation', 'guarantee')] });
    const theirs = await other.call('GET', `/supervision/items/${ref}`, otherAdmin);
    expect(theirs.status).toBe(404);
    const theirList = await other.call('GET', '/supervision/items?policy_reference=isolation&result_type=total', otherAdmin);
    expect(theirList.body).toEqual({ count: 0 });
    // Their token on our path is refused before anything is read.
    expect((await tenant.call('GET', `/supervision/items/${ref}`, otherAdmin)).status).toBe(403);
    expect((await other.call('PUT', `/supervision/items/${ref}`, otherAdmin, { action: 'claim' })).status).toBe(404);
  });

  it('filters by overdue and counts it exactly; the deadlines job raises one Scoped alert per policy naming how many', async () => {
    const policy = `late-${tenant.client.slice(-6)}`;
    // Deadlines in the past: raised with a review period that has run out (recordHits takes days from now, so the
    // items are written with their deadline moved back, as a store of a week ago would hold them).
    const late = [await raise(tenant.client, { hits: [hit(policy, 'guarantee')] }), await raise(tenant.client, { hits: [hit(policy, 'guarantee')] })];
    for (const ref of late) {
      const key = keys.supervisionItem.key(tenant.client, ref);
      const item = await tenant.deps.table.get(key, { consistent: true });
      const past = new Date(Date.now() - 86_400_000).toISOString();
      await tenant.deps.table.put({ ...item!, due_at: past, ...keys.supervisionItem.item(tenant.client, { itemReference: ref, state: 'Open', dueAt: past, payloadTime: String(item!.payload_time) }) });
    }
    await raise(tenant.client, { hits: [hit(policy, 'guarantee')] });
    const overdue = await as(admin, 'GET', `/supervision/items?overdue=true&policy_reference=${policy}`);
    expect(overdue.body.data?.map((item) => item.item_reference).sort()).toEqual([...late].sort());
    expect(overdue.body.data?.every((item) => item.is_overdue === true)).toBe(true);
    expect((await as(admin, 'GET', `/supervision/items?overdue=true&policy_reference=${policy}&result_type=total`)).body).toEqual({ count: 2 });

    expect(await raiseTenantOverdueAlerts(tenant.deps, tenant.client)).toBeGreaterThanOrEqual(1);
    await raiseTenantOverdueAlerts(tenant.deps, tenant.client);
    const pointer = await tenant.deps.table.get(keys.alert.scopedKey(tenant.client, 'ops', overdueAlertKey(policy)), { consistent: true });
    const alert = readAlert((await tenant.deps.table.get(keys.alert.key(tenant.client, String(pointer?.alert_reference)), { consistent: true }))!);
    expect(alert).toMatchObject({ alert_type: 'SupervisionAlert', alert_scope: 'ops', alert_key_type: 'Scoped', alert_state: 'Triggered', occurrence_count: 2 });
    expect(alert.alert_message).toBe(`2 review items of policy ${policy} are past their deadline and not closed`);
  });

  it('reports true numbers: outcomes per policy and term, reviewers with their median time to close', async () => {
    const policy = `rep-${tenant.client.slice(-6)}`;
    const refs = [];
    for (let index = 0; index < 4; index += 1) refs.push(await raise(tenant.client, { hits: [hit(policy, index < 3 ? 'guarantee' : 'promise')] }));
    await as(admin, 'PUT', `/supervision/items/${refs[0]}`, { action: 'close', disposition: 'False positive', note: 'Disclaimer' });
    await as(admin, 'PUT', `/supervision/items/${refs[1]}`, { action: 'close', disposition: 'No issue' });
    await as(admin, 'PUT', `/supervision/items/${refs[3]}`, { action: 'close', disposition: 'Issue – actioned', note: 'Coached' });
    const outcomes = await as(admin, 'GET', '/supervision/reports/outcomes');
    expect(outcomes.status).toBe(200);
    const row = (outcomes.body.policies as Array<Record<string, unknown>>).find((entry) => entry.policy_reference === policy);
    expect(row).toEqual({ policy_reference: policy, hits: 4, closed: 3, dispositions: { 'No issue': 1, 'False positive': 1, 'Issue – reported': 0, 'Issue – actioned': 1 }, false_positive_share: 1 / 3 });
    const terms = (outcomes.body.terms as Array<Record<string, unknown>>).filter((entry) => entry.policy_reference === policy);
    expect(terms.map((entry) => [entry.term, entry.hits, entry.closed, entry.false_positive_share])).toEqual([
      ['guarantee', 3, 2, 0.5],
      ['promise', 1, 1, 0],
    ]);
    const reviewers = await as(admin, 'GET', '/supervision/reports/reviewers');
    const mine = (reviewers.body.rows as Array<Record<string, unknown>>).find((entry) => entry.reviewer === `${tenant.client}-admin`);
    expect(mine).toMatchObject({ reviewer_actor: { email: `admin@${tenant.client}.test` } });
    expect(Number(mine?.closed)).toBeGreaterThanOrEqual(3);
    expect(Number(mine?.median_hours_to_close)).toBeLessThan(1);
    expect(await as(admin, 'GET', '/supervision/reports/nonsense')).toMatchObject({ status: 400 });
    expect(await as(admin, 'GET', '/supervision/reports/outcomes?from=2026-02-01&to=2026-01-01')).toMatchObject({ status: 400, body: { message: 'query.from: Must not be after to' } });
  });

  it('answers hostile input with a 400 naming the problem, never a 5xx', async () => {
    const ref = await raise(tenant.client);
    const cases: Array<[string, string, unknown]> = [
      ['PUT', `/supervision/items/${ref}`, { action: 'explode' }],
      ['PUT', `/supervision/items/${ref}`, { action: 'close', disposition: 'Maybe' }],
      ['PUT', `/supervision/items/${ref}`, { action: 'claim', extra: 1 }],
      ['PUT', `/supervision/items/${ref}`, '{"action":'],
      ['PUT', '/supervision/items/..%2F..%2Fetc', { action: 'claim' }],
      ['GET', '/supervision/items?state=Lost', undefined],
      ['GET', '/supervision/items?overdue=maybe', undefined],
      ['GET', '/supervision/items?limit=100000', undefined],
      ['GET', '/supervision/items?last_key=forged', undefined],
      ['PUT', '/supervision/items', { action: 'claim', item_references: Array.from({ length: 101 }, (_, index) => `${ref.slice(0, 20)}${String(index).padStart(6, '0')}`) }],
    ];
    for (const [method, path, body] of cases) {
      const answer = await as(admin, method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(String(answer.body.message)).toMatch(/^(params|query|body)(\.[\w[\]]+)*: /);
    }
  });
});

/** The item's own retention markers (SupervisionData counts from `at`: its closing). */
const markersOf = async (ref: string) => {
  const marker = await tenant.deps.table.get(keys.retentionDue.key(tenant.client, keys.supervisionItem.key(tenant.client, ref), 'at'), { consistent: true });
  return marker === undefined ? [] : [readRetentionDue(marker)].map((due) => [due.record_type, due.stage]);
};

describe('retention of review items (SupervisionData)', () => {
  it('disposes of a closed item past its period, never an outstanding one, and none while its device user is held', async () => {
    const { client, deps } = tenant;
    const DAY = 86_400_000;
    // A shorter period than the default waits for a second approver (four eyes): `applied` approves it as one.
    expect((await tenant.applied('PUT', '/account/retention', tenant.admin, { SupervisionData: { delete_after_days: 1, destroy_after_days: 1000 } })).status).toBe(200);
    await deps.table.put({ ...keys.deviceUser.item(client, 'du-held', NORTH), client, device_user_reference: 'du-held', group: NORTH, is_active: true, services: [], expected_device_count: 1, is_legacy: false });
    expect((await tenant.call('PUT', '/account/legal_holds/DeviceUser/du-held', tenant.admin, {})).status).toBe(200);
    const free = await raise(client, { deviceUser: 'du-sam', hits: [hit('retained', 'guarantee')] });
    const held = await raise(client, { deviceUser: 'du-held', hits: [hit('retained', 'guarantee')] });
    const open = await raise(client, { deviceUser: 'du-sam', hits: [hit('retained', 'guarantee')] });
    const close = (ref: string) => as(admin, 'PUT', `/supervision/items/${ref}`, { action: 'close', disposition: 'No issue' });
    expect((await close(free)).status).toBe(200);
    expect((await close(held)).status).toBe(200);
    // Closing puts the marker, reopening takes it away, closing again puts it back: in the item's own transaction.
    expect(await markersOf(free)).toEqual([['SupervisionData', 'LIVE']]);
    expect((await as(admin, 'PUT', `/supervision/items/${free}`, { action: 'reopen', note: 'Look again' })).status).toBe(200);
    expect(await markersOf(free)).toEqual([]);
    expect((await close(free)).status).toBe(200);
    expect(await markersOf(open)).toEqual([]);

    await retentionRunTo(deps, client, new Date(Date.now() + 10 * DAY).toISOString());
    expect(await as(admin, 'GET', `/supervision/items/${free}`)).toMatchObject({ status: 404 });
    expect((await as(admin, 'GET', '/supervision/items?policy_reference=retained')).body.data?.map((item) => item.item_reference).sort()).toEqual([held, open].sort());
    expect((await as(admin, 'GET', '/supervision/items?policy_reference=retained&result_type=total')).body).toEqual({ count: 2 });
    expect((await as(admin, 'GET', `/supervision/items/${held}`)).body).toMatchObject({ state: 'Closed' });
    expect((await as(admin, 'GET', `/supervision/items/${open}`)).body).toMatchObject({ state: 'Open' });

    // The run that destroys marks the item and leaves its history to the purge steps, which a run lays out as it
    // starts: the next run removes the history, then the item.
    await retentionRunTo(deps, client, new Date(Date.now() + 2000 * DAY).toISOString());
    expect((await deps.table.get(keys.supervisionItem.key(client, free), { consistent: true }))?.retention_state).toBe('Destroyed');
    expect(await as(admin, 'GET', `/supervision/items/${free}`)).toMatchObject({ status: 404 });
    await retentionRunTo(deps, client, new Date(Date.now() + 2000 * DAY).toISOString());
    // Destroyed: the item and its whole history are gone, its disposal records remain.
    expect((await deps.table.query({ partition: keys.supervisionItem.key(client, free).pk, consistent: true })).items).toEqual([]);
    const disposals = [];
    for await (const page of eachPage(deps.table, keys.disposal.list(client), 1000)) disposals.push(...page.map(readDisposal));
    expect(disposals.filter((disposal) => disposal.reference === free).map((disposal) => [disposal.record_type, disposal.action]).sort()).toEqual([
      ['SupervisionData', 'Deleted'],
      ['SupervisionData', 'Destroyed'],
    ]);
    expect(disposals.filter((disposal) => disposal.reference === held || disposal.reference === open)).toEqual([]);
    const heldDetail = await as(admin, 'GET', `/supervision/items/${held}`);
    expect(heldDetail.body).toMatchObject({ state: 'Closed' });
    expect(heldDetail.body.history?.length).toBe(2);
  }, 120_000);
});

describe('what the queue views read', () => {
  it('reads on DynamoDB Local only the items each view needs: overdue and a reviewer\'s own queue by key range, a page in one batch', async () => {
    const { client, deps } = other;
    const TOTAL = 300;
    const LATE = 30;
    const HELD = 20;
    const past = new Date(Date.now() - 86_400_000).toISOString();
    for (let index = 0; index < TOTAL; index += 1) {
      const ref = await raise(client, { hits: [hit('volume', 'guarantee')] });
      if (index >= LATE + HELD) continue;
      const stored = (await deps.table.get(keys.supervisionItem.key(client, ref), { consistent: true }))!;
      const held = index >= LATE;
      const placement = { itemReference: ref, state: held ? 'Claimed' : 'Open', dueAt: held ? String(stored.due_at) : past, payloadTime: String(stored.payload_time), ...(held ? { assignee: 'rev-1' } : {}) };
      await deps.table.put({ ...stored, ...keys.supervisionItem.item(client, placement), state: placement.state, due_at: placement.dueAt, ...(held ? { assignee: 'rev-1' } : {}) });
    }
    const everything = { role_reference: 'all', permissions: [{ actions_matching: 'supervision:*', is_denied: false, is_regex: false }], payload_types: ['SMS'], cidr_ranges: [], is_system: false } as unknown as Role;
    const access = createAccessContext({ roles: [everything], ip: undefined, isClientApp: false });
    const caller = (action: string) => tenantCaller(deps, client, access, { action });
    const measured = async (query: Record<string, unknown>) => measureCapacity(() => listItems(caller('supervision:ListItems'), { limit: 50, result_type: 'page', ...query }));

    const overdue = await measured({ overdue: true, result_type: 'total' });
    const mine = await measured({ assignee: 'rev-1' });
    const newest = await measured({});
    const claimed = await measured({ state: 'Claimed', limit: 10 });
    const report = await measureCapacity(() => readReport(caller('supervision:ReadReports'), 'outstanding', {}));
    const figures = Object.fromEntries(Object.entries({ overdue, mine, newest, claimed, report }).map(([name, { capacity }]) => [name, { items: capacity.itemsRead, read_units: capacity.readUnits }]));
    console.info('supervision queue views on DynamoDB Local', JSON.stringify(figures));

    expect(overdue.result).toEqual({ count: LATE });
    expect(overdue.capacity.itemsRead).toBe(LATE);
    expect('data' in mine.result && mine.result.data.length).toBe(HELD);
    expect(mine.capacity.itemsRead).toBe(HELD);
    expect('data' in newest.result && newest.result.data.length).toBe(50);
    // Every list skips items retention disposed of, so it reads as a filtered list does: one batch (FILTER_BATCH).
    expect(newest.capacity.itemsRead).toBeLessThanOrEqual(FILTER_BATCH);
    // A state the key does not hold is a filter over the outstanding queue: it reads until its page is full, first
    // the page and one more, then (once the filter has left items out) one batch (FILTER_BATCH).
    expect('data' in claimed.result && claimed.result.data.length).toBe(10);
    expect(claimed.capacity.itemsRead).toBeLessThanOrEqual(10 + 1 + FILTER_BATCH);
    expect(report.capacity.itemsRead).toBe(TOTAL);
    expect(report.result).toMatchObject({ rows: [{ policy_reference: 'volume', open: TOTAL - HELD, claimed: HELD, escalated: 0, overdue: LATE }] });
  }, 180_000);
});
