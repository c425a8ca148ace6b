import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import { isRecordingHeld } from '../../lambdas/account-data/public.ts';
import { approvalKeys } from '../../lambdas/account-data/approvals/approval-store.ts';
import { PendingChange } from '#shared/contract/entities/approvals.ts';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Four eyes on what shortens a record's life, through the API on the local stack, in a tenant of this run: admin A
 * (the run tenant's admin app) requests, admin B (a second app holding a full-access role) approves. A hold release,
 * a shorter period and a removed regulatory rule change nothing until B approves; A's own approval is refused; a
 * longer period applies at once; a pending change expires unapproved.
 */
let tenant: RunTenant;
let adminB: string;
/** May list and decide pending changes, but neither release holds nor change retention. */
let decider: string;
let otherTenant: string;
const alice = 'alice';
const recording = { device_reference: 'dev-alice', device_user_reference: alice };

const messagesOf = (body: Record<string, unknown>) => String(body.message).split('\n');
const callEntry = (deleteAfter: number) => ({ payload_type: 'Call', delete_after_days: deleteAfter, destroy_after_days: deleteAfter + 90 });
const callPeriod = async () => {
  const policy = RetentionPolicy.parse((await tenant.call('GET', '/account/retention', tenant.admin)).body);
  return policy.PayloadData?.find((entry) => entry.payload_type === 'Call')?.delete_after_days;
};

async function role(reference: string, patterns: string[]): Promise<string> {
  const { client, deps } = tenant;
  const { entity: _entity, ...adminKey } = keys.role.item(client, 'admin');
  const admin = await deps.table.get(adminKey, { consistent: true });
  const permissions = patterns.map((pattern) => ({ actions_matching: pattern, is_denied: false, is_regex: false }));
  await deps.table.put({ ...admin!, ...keys.role.item(client, reference), role_reference: reference, permissions, is_system: false });
  return tenant.tokenFor(reference);
}

beforeAll(async () => {
  tenant = await createRunTenant('foureyes');
  const { client, deps } = tenant;
  adminB = await role('second-admin', ['*']);
  decider = await role('decider', ['approvals:*', 'legalHolds:List', 'retention:Read']);
  otherTenant = (await signIn('admin@acme.test')).id_token;
  const now = new Date().toISOString();
  await deps.table.put({ ...keys.deviceUser.item(client, alice), client, device_user_reference: alice, is_active: true, services: [], updated_at: now });
  await deps.table.put({ ...keys.device.item(client, 'dev-alice', alice), client, device_reference: 'dev-alice', device_user_reference: alice });
});
afterAll(() => tenant.close());

describe('four eyes on a legal hold release', () => {
  let pending: PendingChange;

  it('answers 202 with the pending release, and the hold still holds', async () => {
    expect((await tenant.call('PUT', `/account/legal_holds/DeviceUser/${alice}`, tenant.admin, {})).status).toBe(200);
    const released = await tenant.call('DELETE', `/account/legal_holds/DeviceUser/${alice}`, tenant.admin);
    expect(released.status).toBe(202);
    pending = PendingChange.parse(released.body);
    expect(pending).toMatchObject({ kind: 'LegalHoldRelease', status: 'Pending', target: alice, target_type: 'DeviceUser', requested_by: 'app:admin-app', action: 'legalHolds:Release' });
    expect(Date.parse(pending.expires_at) - Date.parse(pending.requested_at)).toBe(7 * 86_400_000);

    const holds = await tenant.call('GET', '/account/legal_holds?active_only=true', tenant.admin);
    expect((holds.body.data as Array<{ target: string }>).map((hold) => hold.target)).toEqual([alice]);
    expect(await isRecordingHeld(tenant.deps, tenant.client, recording)).toBe(true);
  });

  it('refuses a second request for the same hold with 409 naming the first', async () => {
    const again = await tenant.call('PUT', `/account/legal_holds/DeviceUser/${alice}`, adminB, { is_active: false });
    expect(again.status).toBe(409);
    expect(String(again.body.message)).toContain(pending.approval_reference);
    expect(String(again.body.message)).toContain('requested by admin-app on');
  });

  it("refuses the requester's own approval with 403 and changes nothing", async () => {
    const own = await tenant.call('POST', `/approvals/${pending.approval_reference}/approve`, tenant.admin);
    expect(own.status).toBe(403);
    expect(messagesOf(own.body)).toEqual(['You requested this change: a second person who may make it must approve it']);
    expect(await isRecordingHeld(tenant.deps, tenant.client, recording)).toBe(true);
  });

  it('refuses an approver without the permission the release needs', async () => {
    const refused = await tenant.call('POST', `/approvals/${pending.approval_reference}/approve`, decider);
    expect(refused.status).toBe(403);
    expect(String(refused.body.message)).toContain('legalHolds:Release');
    expect(await isRecordingHeld(tenant.deps, tenant.client, recording)).toBe(true);
  });

  it("releases the hold on B's approval, the release naming B and the request naming A", async () => {
    const approved = await tenant.call('POST', `/approvals/${pending.approval_reference}/approve`, adminB);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'Approved', requested_by: 'app:admin-app', decided_by: 'app:second-admin-app' });
    expect(await isRecordingHeld(tenant.deps, tenant.client, recording)).toBe(false);
    const holds = await tenant.call('GET', `/account/legal_holds?target_type=DeviceUser`, tenant.admin);
    expect((holds.body.data as Array<Record<string, unknown>>)[0]).toMatchObject({ target: alice, is_active: false, updated_by: 'app:second-admin-app' });

    // Both acts are on the user activity trail, naming each person.
    const trail = await tenant.deps.table.query({ ...keys.userActivity.list(tenant.client), limit: 1000 });
    const calls = trail.items
      .filter((record) => ['legalHolds:Release', 'approvals:Approve'].includes(String(record.action)) && record.status_code !== 403)
      .map((record) => `${String(record.user_id)} ${String(record.action)} ${String(record.status_code)}`);
    expect(calls.sort()).toEqual(['app:admin-app legalHolds:Release 202', 'app:second-admin-app approvals:Approve 200'].sort());
  });

  it('answers 409 for a decision on a change already decided, and 404 for one unknown or another tenant\'s', async () => {
    const twice = await tenant.call('POST', `/approvals/${pending.approval_reference}/reject`, adminB, {});
    expect(twice.status).toBe(409);
    expect(String(twice.body.message)).toContain('approved');
    expect((await tenant.call('POST', '/approvals/01ARZ3NDEKTSV4RRFFQ69G5FAV/approve', adminB)).status).toBe(404);
    const foreign = await fetchAs(otherTenant, `/api/v1/acme/approvals/${pending.approval_reference}`);
    expect(foreign).toBe(404);
    const bad = await tenant.call('POST', '/approvals/not-a-ulid/approve', adminB);
    expect(bad.status).toBe(400);
    expect(messagesOf(bad.body)[0]).toMatch(/^params\.approval_reference: /);
  });
});

describe('four eyes on retention', () => {
  it('applies a longer period at once', async () => {
    const longer = await tenant.call('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(3000)] });
    expect(longer.status).toBe(200);
    expect(await callPeriod()).toBe(3000);
  });

  it("keeps a shorter period pending until B approves; A's own approval is refused", async () => {
    const shorter = await tenant.call('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(400)] });
    expect(shorter.status).toBe(202);
    const change = PendingChange.parse(shorter.body);
    expect(change.shortens).toContain('PayloadData Call: deleted after 400 days instead of 3,000 days');
    expect(await callPeriod()).toBe(3000);

    expect((await tenant.call('POST', `/approvals/${change.approval_reference}/approve`, tenant.admin)).status).toBe(403);
    expect(await callPeriod()).toBe(3000);

    const listed = await tenant.call('GET', '/approvals?status=Pending', adminB);
    expect((listed.body.data as PendingChange[]).map((entry) => entry.approval_reference)).toEqual([change.approval_reference]);

    const approved = await tenant.call('POST', `/approvals/${change.approval_reference}/approve`, adminB);
    expect(approved.status).toBe(200);
    expect(await callPeriod()).toBe(400);
    const policy = RetentionPolicy.parse((await tenant.call('GET', '/account/retention', tenant.admin)).body);
    expect(policy.updated_by).toBe('app:second-admin-app');
  });

  it('refuses a period below the floor with 400 naming the rule, before any approval', async () => {
    expect((await tenant.call('PUT', '/account/retention', tenant.admin, { regulatory_rules: ['SEC_17a_4'], PayloadData: [callEntry(1500)] })).status).toBe(200);
    const below = await tenant.call('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(1000)] });
    expect(below.status).toBe(400);
    expect(messagesOf(below.body)).toEqual(['body.PayloadData.0.delete_after_days: SEC 17a-4 keeps communications at least 1,096 days']);
    expect((await tenant.call('GET', '/approvals?status=Pending', adminB)).body.data).toEqual([]);
  });

  it('needs approval to lower the floor (a rule removed); B rejects it and nothing changes', async () => {
    const lower = await tenant.call('PUT', '/account/retention', tenant.admin, { regulatory_rules: [], PayloadData: [callEntry(1500)] });
    expect(lower.status).toBe(202);
    const change = PendingChange.parse(lower.body);
    expect(change.shortens).toEqual(['regulatory_rules: SEC 17a-4 removed (a lower regulatory floor)']);

    const rejected = await tenant.call('POST', `/approvals/${change.approval_reference}/reject`, adminB, { reason: 'We are a broker-dealer' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'Rejected', decided_by: 'app:second-admin-app', decision_reason: 'We are a broker-dealer' });
    expect(RetentionPolicy.parse((await tenant.call('GET', '/account/retention', tenant.admin)).body).regulatory_rules).toEqual(['SEC_17a_4']);
    expect((await tenant.call('POST', `/approvals/${change.approval_reference}/approve`, adminB)).status).toBe(409);
  });

  it('expires a pending change unapproved after its time, recorded, and frees its target', async () => {
    const shorter = await tenant.call('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(1200)] });
    expect(shorter.status).toBe(202);
    const change = PendingChange.parse(shorter.body);
    // Seven days on: the stored expiry is moved into the past, as the clock would have done.
    await tenant.deps.table.update(approvalKeys.change(tenant.client, change.approval_reference), { set: { expires_at: new Date(Date.now() - 1000).toISOString() } });

    const read = await tenant.call('GET', `/approvals/${change.approval_reference}`, adminB);
    expect(read.body).toMatchObject({ status: 'Expired' });
    expect((await tenant.call('POST', `/approvals/${change.approval_reference}/approve`, adminB)).status).toBe(409);
    expect(await callPeriod()).toBe(1500);

    const trail = await tenant.deps.table.query({ ...keys.userActivity.list(tenant.client), limit: 1000 });
    const expiry = trail.items.filter((record) => record.action === 'approvals:Expire');
    expect(expiry).toHaveLength(1);
    expect(expiry[0]).toMatchObject({ user_id: 'job:approval-expiry', parameters: { approval_reference: change.approval_reference, requested_by: 'app:admin-app' } });

    // The target is free again: a new request goes pending.
    const again = await tenant.call('PUT', '/account/retention', tenant.admin, { PayloadData: [callEntry(1200)] });
    expect(again.status).toBe(202);
    expect((await tenant.call('POST', `/approvals/${String(again.body.approval_reference)}/reject`, tenant.admin, {})).status).toBe(200);
  });

  it('answers hostile decision bodies and list queries with 400 lines, never a 5xx', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/approvals/01ARZ3NDEKTSV4RRFFQ69G5FAV/reject', { reason: 'x'.repeat(501) }],
      ['POST', '/approvals/01ARZ3NDEKTSV4RRFFQ69G5FAV/reject', { surprise: true }],
      ['GET', '/approvals?status=Maybe', undefined],
      ['GET', '/approvals?limit=0', undefined],
    ];
    for (const [method, path, body] of cases) {
      const answer = await tenant.call(method, path, adminB, body);
      expect(answer.status, path).toBe(400);
      expect(messagesOf(answer.body)[0], path).toMatch(/^(body|query)\.[a-z_]+: /);
    }
  });
});

async function fetchAs(token: string, path: string): Promise<number> {
  const { api, bearer } = await import('./support/stack.ts');
  return (await api(path, { headers: bearer(token) })).status;
}
