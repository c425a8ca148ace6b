import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import { Case } from '#shared/contract/entities/cases.ts';
import { LegalHold } from '#shared/contract/entities/account-data.ts';
import { CASE_CUSTODIANS_MAX, CASE_HOLDS_MAX } from '#shared/constants/cases.ts';
import { portalUserItem } from '../../scripts/admin/tenant-items.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { signIn } from './support/sign-in.ts';
import { api } from './support/stack.ts';

/**
 * Cases (docs/cases.md) on the local stack, in a tenant of this run: a case is seen by its team only (a tenant admin
 * outside the team gets 404 on list, count, read, change and close; staff in support mode only when the team allows
 * it); opening with collect and hold places one legal hold per custodian device user, marked with the case; closing
 * releases only the holds the case placed (through four eyes), never one someone else placed on the same person; and
 * hostile input is a 4xx with a `path: message` line.
 *
 * People: device users alice, bob and carol; carol is held by the tenant's admin before the case opens. Portal users:
 * `officer` (opens the case, its team), `outsider` (the tenant's admin role, not on the team) and `dana` (a portal-user
 * custodian).
 */
let tenant: RunTenant;
let other: RunTenant;
let officer: string;
let outsider: string;
let staff: string;
const alice = 'alice';
const bob = 'bob';
const carol = 'carol';

const opening = {
  title: 'Q2 rates enquiry',
  description: 'Calls and messages with the counterparty during the period',
  custodians: { device_users: [alice, bob, carol], portal_users: ['dana'] },
  counterparty_numbers: ['+44 (20) 7946-0000'],
  period: { from: '2026-03-01T00:00:00Z', to: '2026-05-31T23:59:59Z' },
  payload_types: ['Call', 'SMS'],
  collect_and_hold: true,
};

const hold = async (target: string) => {
  const answer = await tenant.call('GET', '/account/legal_holds?target_type=DeviceUser&limit=100', tenant.admin);
  const found = (answer.body.data as unknown[]).map((entry) => LegalHold.parse(entry)).find((entry) => entry.target === target);
  if (found === undefined) throw new Error(`No hold on ${target}`);
  return found;
};

/** Staff in support mode for the run tenant: asked by staff, approved by the tenant's admin (a portal user). */
async function supportMode(): Promise<string> {
  const expiry = new Date(Date.now() + 3_600_000).toISOString();
  const asked = await api(`/internal/v1/clients/${tenant.client}/supportaccess`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
    body: JSON.stringify({ role: 'admin', request_description: 'Cases visibility check', requested_expiry: expiry }),
  });
  const request = (await asked.json()) as { request_reference: string };
  expect(asked.status).toBe(201);
  const approved = await tenant.call('PUT', `/supportaccess/${request.request_reference}`, outsider, { approval_state: 'approved', approval_expiry: expiry });
  expect(approved.status).toBe(200);
  return `internal-${request.request_reference} ${staff}`;
}

async function asSupport(authorization: string, path: string) {
  const response = await api(`/api/v1/${tenant.client}${path}`, { headers: { authorization } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  [tenant, other] = await Promise.all([createRunTenant('cases'), createRunTenant('cases-other')]);
  const { client, deps } = tenant;
  const now = new Date().toISOString();
  for (const user of [alice, bob, carol]) {
    await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: now });
  }
  await other.deps.table.put({ ...keys.deviceUser.item(other.client, 'zed'), client: other.client, device_user_reference: 'zed', is_active: true, services: [], updated_at: now });
  for (const sub of ['officer', 'outsider', 'dana']) {
    await deps.table.put(portalUserItem({ sub, email: `${sub}@example.com`, client, roles: ['admin'] }, now, 'seed') as never);
  }
  officer = await portalTokenFor(client, { sub: 'officer', email: 'officer@example.com', groups: ['admin'] });
  outsider = await portalTokenFor(client, { sub: 'outsider', email: 'outsider@example.com', groups: ['admin'] });
  staff = (await signIn('staff@verity.test')).id_token;
  expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${carol}`, tenant.admin, {})).status).toBe(200);
});
afterAll(async () => {
  await Promise.all([tenant.close(), other.close()]);
});

describe('cases', () => {
  let caseRef: string;

  it('opens a case for its team, holding each custodian device user not already held by someone else', async () => {
    const opened = await tenant.call('POST', '/cases', officer, opening);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const answer = Case.parse(opened.body);
    caseRef = answer.case_ref;
    expect(answer).toMatchObject({ state: 'Open', team: ['officer'], support_may_view: false, counterparty_numbers: ['+442079460000'], created_by: 'officer' });
    // carol was held by the tenant's admin already: not the case's hold, so the case will never release it.
    expect(answer.holds.map((entry) => [entry.target, entry.state])).toEqual([
      [alice, 'Active'],
      [bob, 'Active'],
    ]);
    expect(await hold(alice)).toMatchObject({ is_active: true, placed_by_cases: [caseRef] });
    expect((await hold(carol)).placed_by_cases).toBeUndefined();
  });

  it('is seen by its team member: read, list and count', async () => {
    expect((await tenant.call('GET', `/cases/${caseRef}`, officer)).status).toBe(200);
    const listed = await tenant.call('GET', '/cases', officer);
    expect((listed.body.data as Array<{ case_ref: string }>).map((entry) => entry.case_ref)).toEqual([caseRef]);
    expect((await tenant.call('GET', '/cases?result_type=total', officer)).body).toEqual({ count: 1 });
  });

  it('is absent for a tenant admin outside the team, and for the admin client app: list, count, read, change, close', async () => {
    for (const token of [outsider, tenant.admin]) {
      expect((await tenant.call('GET', `/cases/${caseRef}`, token)).status).toBe(404);
      expect((await tenant.call('GET', '/cases', token)).body).toEqual({ count: 0, data: [] });
      expect((await tenant.call('GET', '/cases?result_type=total', token)).body).toEqual({ count: 0 });
      const changed = await tenant.call('PUT', `/cases/${caseRef}`, token, { team: ['outsider'] });
      expect(changed.status).toBe(404);
      expect(changed.body.message).toBe(`Case ${caseRef} not found`);
      expect((await tenant.call('POST', `/cases/${caseRef}/close`, token)).status).toBe(404);
    }
    expect(Case.parse((await tenant.call('GET', `/cases/${caseRef}`, officer)).body)).toMatchObject({ team: ['officer'], state: 'Open' });
  });

  it('is seen by staff in support mode only once the team allows it', async () => {
    const authorization = await supportMode();
    expect((await asSupport(authorization, `/cases/${caseRef}`)).status).toBe(404);
    expect((await asSupport(authorization, '/cases?result_type=total')).body).toEqual({ count: 0 });
    expect((await tenant.call('PUT', `/cases/${caseRef}`, officer, { support_may_view: true })).status).toBe(200);
    expect((await asSupport(authorization, `/cases/${caseRef}`)).status).toBe(200);
    expect((await asSupport(authorization, '/cases?result_type=total')).body).toEqual({ count: 1 });
    expect((await tenant.call('PUT', `/cases/${caseRef}`, officer, { support_may_view: false })).status).toBe(200);
    expect((await asSupport(authorization, `/cases/${caseRef}`)).status).toBe(404);
  });

  it('lets the team add a member, who then sees it; one removed no longer does', async () => {
    expect((await tenant.call('PUT', `/cases/${caseRef}`, officer, { team: ['officer', 'outsider'] })).status).toBe(200);
    expect((await tenant.call('GET', `/cases/${caseRef}`, outsider)).status).toBe(200);
    expect((await tenant.call('GET', '/cases?result_type=total', outsider)).body).toEqual({ count: 1 });
    expect((await tenant.call('PUT', `/cases/${caseRef}`, outsider, { team: ['officer'] })).status).toBe(200);
    expect((await tenant.call('GET', `/cases/${caseRef}`, outsider)).status).toBe(404);
    expect((await tenant.call('GET', '/cases', outsider)).body).toEqual({ count: 0, data: [] });
  });

  it('closes: releases only the holds it placed (through four eyes), never one someone else placed on the same person', async () => {
    // The tenant's admin places bob's hold themselves while the case is open: from then on it is theirs.
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${bob}`, tenant.admin, {})).status).toBe(200);
    expect((await hold(bob)).placed_by_cases).toBeUndefined();

    const closed = await tenant.call('POST', `/cases/${caseRef}/close`, officer);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const answer = Case.parse(closed.body);
    expect(answer).toMatchObject({ state: 'Closed', closed_by: 'officer' });
    const states = Object.fromEntries(answer.holds.map((entry) => [entry.target, entry.state]));
    expect(states).toEqual({ [alice]: 'AwaitingApproval', [bob]: 'KeptByOther' });
    const pending = answer.holds.find((entry) => entry.target === alice)?.approval_reference;
    expect(pending).toBeDefined();

    // A second person approves the release the case asked for: only alice's hold ends.
    expect((await tenant.call('POST', `/approvals/${pending}/approve`, tenant.admin)).status).toBe(200);
    expect((await hold(alice)).is_active).toBe(false);
    expect((await hold(bob)).is_active).toBe(true);
    expect((await hold(carol)).is_active).toBe(true);

    // A closed case is kept as it was.
    const late = await tenant.call('PUT', `/cases/${caseRef}`, officer, { title: 'Renamed' });
    expect(late.status).toBe(409);
  });

  it('keeps a hold two cases placed until the second of them closes', async () => {
    const first = Case.parse((await tenant.call('POST', '/cases', officer, { ...opening, custodians: { device_users: [alice] } })).body);
    const second = Case.parse((await tenant.call('POST', '/cases', officer, { ...opening, custodians: { device_users: [alice] } })).body);
    expect(second.holds.map((entry) => entry.target)).toEqual([alice]);
    expect((await hold(alice)).placed_by_cases).toEqual([first.case_ref, second.case_ref]);
    const closedFirst = Case.parse((await tenant.call('POST', `/cases/${first.case_ref}/close`, officer)).body);
    expect(closedFirst.holds[0]?.state).toBe('KeptByOther');
    expect(await hold(alice)).toMatchObject({ is_active: true, placed_by_cases: [second.case_ref] });
    const closedSecond = Case.parse((await tenant.call('POST', `/cases/${second.case_ref}/close`, officer)).body);
    expect(closedSecond.holds[0]?.state).toBe('AwaitingApproval');
  });
});

describe('hostile input to cases', () => {
  const open = (body: unknown) => tenant.call('POST', '/cases', officer, body);

  it('refuses a case with no custodian', async () => {
    const answer = await open({ ...opening, custodians: { device_users: [], portal_users: [] } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('body.custodians: Must name at least one device user or portal user');
  });

  it('refuses 100,000 custodians with a path line, never a 5xx', async () => {
    const many = Array.from({ length: 100_000 }, (_, index) => `c${String(index).padStart(5, '0')}`);
    const answer = await open({ ...opening, custodians: { device_users: many } });
    expect(answer.status).toBe(400);
    expect(String(answer.body.message).split('\n')).toContain(`body.custodians.device_users: Must contain between 0 and ${CASE_CUSTODIANS_MAX} items`);
  });

  it(`holds at most ${CASE_HOLDS_MAX} device users by collect and hold, placing and asking to release them in one request each`, async () => {
    const { client, deps } = tenant;
    const now = new Date().toISOString();
    const people = Array.from({ length: CASE_HOLDS_MAX + 1 }, (_, index) => `bulk-${String(index).padStart(2, '0')}`);
    for (const user of people) await deps.table.put({ ...keys.deviceUser.item(client, user), client, device_user_reference: user, is_active: true, services: [], updated_at: now });
    const line = `body.custodians.device_users: Collect and hold holds at most ${CASE_HOLDS_MAX} device users; hold more on the legal holds page`;
    const refused = await open({ ...opening, custodians: { device_users: people } });
    expect(refused.status).toBe(400);
    expect(String(refused.body.message).split('\n')).toContain(line);
    // Without collect and hold, as many custodians as a case may name.
    expect((await open({ ...opening, collect_and_hold: false, custodians: { device_users: people } })).status).toBe(201);

    const opened = await open({ ...opening, custodians: { device_users: people.slice(0, CASE_HOLDS_MAX) } });
    expect(opened.status, JSON.stringify(opened.body).slice(0, 300)).toBe(201);
    const held = Case.parse(opened.body);
    expect(held.holds.filter((entry) => entry.state === 'Active')).toHaveLength(CASE_HOLDS_MAX);
    // One more custodian on the open case would pass the bound: refused before anything is held.
    const more = await tenant.call('PUT', `/cases/${held.case_ref}`, officer, { custodians: { device_users: people, portal_users: [] } });
    expect(more.status).toBe(400);
    expect(more.body.message).toBe(line);
    expect((await hold(people[CASE_HOLDS_MAX] as string).catch(() => undefined))?.is_active).not.toBe(true);
    const closed = await tenant.call('POST', `/cases/${held.case_ref}/close`, officer);
    expect(closed.status).toBe(200);
    expect(Case.parse(closed.body).holds.every((entry) => entry.state === 'AwaitingApproval')).toBe(true);
  }, 180_000);

  it("answers another tenant's people and cases as unknown (404)", async () => {
    const foreign = await open({ ...opening, custodians: { device_users: ['zed'] } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Device user zed not found');
    const unknownTeam = await open({ ...opening, team: ['nobody-here'] });
    expect(unknownTeam.status).toBe(404);
    const otherOfficer = await portalTokenFor(other.client, { sub: 'officer', email: 'officer@example.com', groups: ['admin'] });
    await other.deps.table.put(portalUserItem({ sub: 'officer', email: 'officer@example.com', client: other.client, roles: ['admin'] }, new Date().toISOString(), 'seed') as never);
    const theirs = Case.parse((await other.call('POST', '/cases', otherOfficer, { ...opening, collect_and_hold: false, custodians: { device_users: ['zed'] } })).body);
    expect((await tenant.call('GET', `/cases/${theirs.case_ref}`, officer)).status).toBe(404);
    // The other tenant's token on this tenant's path is refused before any case is read.
    expect((await tenant.call('GET', `/cases/${theirs.case_ref}`, otherOfficer)).status).toBeGreaterThanOrEqual(400);
    expect((await tenant.call('GET', `/cases/${theirs.case_ref}`, otherOfficer)).status).toBeLessThan(500);
  });

  it('refuses a bad period, a number that is not one and a malformed reference', async () => {
    const backwards = await open({ ...opening, period: { from: '2026-06-01T00:00:00Z', to: '2026-05-01T00:00:00Z' } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('body.period.from: from must not be after to');
    const notADate = await open({ ...opening, period: { from: '2026-02-30T00:00:00Z', to: '2026-05-01T00:00:00Z' } });
    expect(notADate.status).toBe(400);
    expect(String(notADate.body.message)).toMatch(/^body\.period\.from: /);
    const letters = await open({ ...opening, counterparty_numbers: ['call me'] });
    expect(letters.status).toBe(400);
    expect(String(letters.body.message)).toMatch(/^body\.counterparty_numbers\.0: /);
    expect((await tenant.call('GET', '/cases/..%2F..%2Fetc', officer)).status).toBe(400);
  });
});
