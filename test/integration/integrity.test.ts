import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#core/store/keys.ts';
import type { IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import { checkTenant, FixityInput } from '../../lambdas/integrity/fixity/fixity-job.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer } from './support/stack.ts';
import { addDevice, record, wav } from './transfer-job-fixtures.ts';

/**
 * The fixity figures as the screens read them: `GET integrity` (the audit screen's "Stored recordings check") and
 * `GET /internal/v1/clients/{client}/integrity` (the internal console's per-client view), after a real run of the job
 * over recordings made through the pipeline. Two tenants of this run: each sees its own runs only.
 */
let tenant: RunTenant;
let other: RunTenant;
let run: IntegrityCheck;
let staff: string;
/** Portal sign-ins (GET integrity is on the portal's surface: portal sign-in only) of each tenant's admin and reviewer. */
let admin: string;
let reviewer: string;
let otherAdmin: string;

const signInOf = (client: string, role: string) => portalTokenFor(client, { sub: `${client}-${role}`, email: `${role}@${client}.test`, groups: [role] });

const internalGet = (client: string, token: string) => api(`/internal/v1/clients/${client}/integrity`, { headers: bearer(token) });

beforeAll(async () => {
  tenant = await createRunTenant('integrity');
  other = await createRunTenant('integrity-other');
  await addDevice(tenant.deps, tenant.client);
  await record(tenant.deps, tenant.client, 'Call', wav(12_000));
  await record(tenant.deps, tenant.client, 'Call', wav(8_000));
  run = await checkTenant(tenant.deps, tenant.client, FixityInput.parse({ client: tenant.client, byte_budget: 10_000_000 }));
  staff = (await signIn('staff@verity.test')).id_token;
  [admin, reviewer, otherAdmin] = await Promise.all([signInOf(tenant.client, 'admin'), signInOf(tenant.client, 'reviewer'), signInOf(other.client, 'admin')]);
}, 120_000);

afterAll(async () => {
  await tenant?.close();
  await other?.close();
});

describe('GET integrity', () => {
  it('answers the tenant\'s latest run with its figures, as the job wrote them', async () => {
    expect(run).toMatchObject({ objects_checked: 2, objects_verified: 2, stored_objects: 2, cycle_progress: 1, failures_changed: 0 });
    const answer = await tenant.call('GET', '/integrity', admin);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const checks = answer.body.checks as IntegrityCheck[];
    expect(checks[0]).toEqual(run);
    expect(checks.every((check) => check.client === tenant.client)).toBe(true);
  });

  it('answers the newest run first', async () => {
    const later = await checkTenant(tenant.deps, tenant.client, FixityInput.parse({ client: tenant.client }));
    const checks = (await tenant.call('GET', '/integrity', reviewer)).body.checks as IntegrityCheck[];
    expect(checks.map((check) => check.check_id).slice(0, 2)).toEqual([later.check_id, run.check_id]);
  });

  it('never shows another tenant\'s runs: the other tenant has none, and its token cannot read this one\'s', async () => {
    const own = await other.call('GET', '/integrity', otherAdmin);
    expect(own.status).toBe(200);
    expect(own.body.checks).toEqual([]);
    const across = await api(`/api/v1/${tenant.client}/integrity`, { headers: bearer(otherAdmin) });
    expect([401, 403]).toContain(across.status);
    expect(await across.text()).not.toContain(run.check_id);
  });

  it('refuses a role without activities:List with a 403', async () => {
    await tenant.deps.table.put({
      ...keys.role.item(tenant.client, 'devices-only'),
      client: tenant.client,
      role_reference: 'devices-only',
      permissions: [{ actions_matching: 'devices:*' }],
      payload_types: ['Call'],
      cidr_ranges: [],
      alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false },
      updated_at: new Date().toISOString(),
    });
    const token = await signInOf(tenant.client, 'devices-only');
    const refused = await tenant.call('GET', '/integrity', token);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(run.check_id);
  });
});

describe('GET /internal/v1/clients/{client}/integrity', () => {
  it('answers staff a client\'s latest runs, the same items the tenant reads', async () => {
    const answer = await internalGet(tenant.client, staff);
    expect(answer.status).toBe(200);
    const checks = ((await answer.json()) as { checks: IntegrityCheck[] }).checks;
    expect(checks.map((check) => check.check_id)).toContain(run.check_id);
    expect(checks.find((check) => check.check_id === run.check_id)).toEqual(run);
    const none = await internalGet(other.client, staff);
    expect(((await none.json()) as { checks: IntegrityCheck[] }).checks).toEqual([]);
  });

  it('refuses a tenant\'s own users, its administrator included', async () => {
    for (const token of [admin, (await signIn('admin@demo.test')).id_token]) {
      const refused = await internalGet(tenant.client, token);
      expect([401, 403]).toContain(refused.status);
      expect(await refused.text()).not.toContain(run.check_id);
    }
  });
});
