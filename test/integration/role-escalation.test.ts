import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { createAccessContext } from '#core/auth/access/create-access-context.ts';
import { ForbiddenError } from '#core/errors.ts';
import { readRole } from '#core/store/entities/role.ts';
import { keys } from '#core/store/keys.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { assertAssignedWithinOwn } from '../../lambdas/access/roles/grant-guard.ts';
import { portalTokenFor } from './support/portal-token.ts';
import { signIn } from './support/sign-in.ts';
import { api, stack } from './support/stack.ts';

/**
 * No privilege through role editing, end to end through the real API. The found escalation was a grant of a narrow
 * role (`roles:*`, `payloads:List` for SMS only) rewriting itself to `*`, by staff holding it through support mode.
 * Support mode now refuses role and client-app changes and the account defaults whatever the role
 * (test/integration/support-mode-grants.test.ts; the last block here checks it for this very role). The guard is
 * still everyone's: here the tenant's admin makes such a role and a tenant portal user holds it; acting with it, they
 * can neither widen it, nor create, change or delete a broader role, nor give a broader role to a client app or the
 * account defaults. Each refusal is a 403 with `path: message` lines; a role within their own still saves. Names
 * carry this run's id, so other files and reruns never meet them.
 */
const CLIENT = 'acme';
const run = ulid().toLowerCase().slice(-8);
const NARROW = `narrow-${run}`;
const ASSIGNER = `assign-${run}`;
const NO_ALERTS = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };
const NARROW_ROLE = {
  permissions: [{ actions_matching: 'roles:*' }, { actions_matching: 'payloads:List' }],
  payload_types: ['SMS'],
  alert_permissions: NO_ALERTS,
  description: 'Manages roles; lists SMS',
};

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown> & { message?: string; errors?: string[] };
}

let deps: Dependencies;
let admin: string;
let staff: string;
/** Authorization values of tenant portal users holding the narrow role, and the assigner role. */
let narrow: string;
let assigner: string;
/** Staff in support mode, granted the narrow role. */
let narrowSupport: string;

async function send(authorization: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await api(path.startsWith('/internal') ? path : `/api/v1/${CLIENT}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, text, body: (text === '' ? {} : JSON.parse(text)) as Answer['body'] };
}
const asAdmin = (method: string, path: string, body?: unknown) => send(`Bearer ${admin}`, method, path, body);

/** The real grant: staff ask for the role, the tenant's admin approves; the support-mode Authorization value. */
async function grantToStaff(role: string): Promise<string> {
  const expiry = new Date(Date.now() + 3_600_000).toISOString();
  const asked = await send(`Bearer ${staff}`, 'POST', `/internal/v1/clients/${CLIENT}/supportaccess`, { role, request_description: 'Role escalation check', requested_expiry: expiry });
  expect(asked.status, asked.text).toBe(201);
  const reference = String(asked.body.request_reference);
  const approved = await asAdmin('PUT', `/supportaccess/${reference}`, { approval_state: 'approved', approval_expiry: expiry });
  expect(approved.status, approved.text).toBe(200);
  return `internal-${reference} ${staff}`;
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  [admin, staff] = (await Promise.all(['admin@acme.test', 'staff@verity.test'].map((email) => signIn(email)))).map((tokens) => tokens.id_token) as [string, string];
  const made = await asAdmin('PUT', `/roles/${NARROW}`, NARROW_ROLE);
  expect(made.status, made.text).toBe(200);
  const assign = await asAdmin('PUT', `/roles/${ASSIGNER}`, {
    permissions: [{ actions_matching: 'apps:*' }, { actions_matching: 'account:*' }, { actions_matching: 'payloads:List' }],
    payload_types: ['SMS'],
    alert_permissions: NO_ALERTS,
  });
  expect(assign.status, assign.text).toBe(200);
  const sms = await asAdmin('PUT', `/roles/sms-${run}`, { permissions: [{ actions_matching: 'payloads:List' }], payload_types: ['SMS'], alert_permissions: NO_ALERTS });
  expect(sms.status, sms.text).toBe(200);
  const devices = await asAdmin('PUT', `/roles/devices-${run}`, { permissions: [{ actions_matching: 'devices:*' }], alert_permissions: NO_ALERTS });
  expect(devices.status, devices.text).toBe(200);
  const holder = async (role: string) => `Bearer ${await portalTokenFor(CLIENT, { sub: `${role}-holder`, email: `${role}@acme.test`, groups: [role] })}`;
  [narrow, assigner, narrowSupport] = await Promise.all([holder(NARROW), holder(ASSIGNER), grantToStaff(NARROW)]);
}, 120_000);

describe('a narrow role that manages roles', () => {
  it('cannot rewrite itself to * (the found escalation): 403, the role and its reach unchanged', async () => {
    expect((await send(narrow, 'GET', '/account/apps')).status).toBe(403);
    const widened = await send(narrow, 'PUT', `/roles/${NARROW}`, { permissions: [{ actions_matching: '*' }], alert_permissions: NO_ALERTS });
    expect(widened.status, widened.text).toBe(403);
    expect(widened.body.errors).toEqual([`params.role_reference: You hold role "${NARROW}", so you cannot change it; ask someone who does not hold it`]);
    expect((await asAdmin('GET', `/roles/${NARROW}`)).body).toMatchObject({
      permissions: [{ actions_matching: 'roles:*' }, { actions_matching: 'payloads:List' }],
      payload_types: ['SMS'],
    });
    expect((await send(narrow, 'GET', '/account/apps')).status).toBe(403);
  });

  it('cannot delete the role it holds', async () => {
    const deleted = await send(narrow, 'DELETE', `/roles/${NARROW}`);
    expect(deleted.status, deleted.text).toBe(403);
    expect(deleted.body.message).toBe(`params.role_reference: You hold role "${NARROW}", so you cannot delete it; ask someone who does not hold it`);
  });

  it('cannot create a broader role: wildcard, regex, wider payload types, alert permissions', async () => {
    const everything = await send(narrow, 'PUT', `/roles/all-${run}`, { permissions: [{ actions_matching: '*' }], alert_permissions: NO_ALERTS });
    expect(everything.status, everything.text).toBe(403);
    expect(everything.body.errors).toEqual([
      expect.stringMatching(/^body\.permissions: You cannot grant more than your own roles allow\. It allows .* where your roles do not/),
      expect.stringMatching(/^body\.permissions: .*pattern "\*" could match actions added later that your roles do not allow/),
      expect.stringMatching(/^body\.payload_types: You cannot grant more than your own roles allow\. It opens payload types your roles do not: /),
    ]);
    const regex = await send(narrow, 'PUT', `/roles/regex-${run}`, { permissions: [{ actions_matching: '.*', is_regex: true }], payload_types: ['SMS'], alert_permissions: NO_ALERTS });
    expect(regex.status, regex.text).toBe(403);
    const calls = await send(narrow, 'PUT', `/roles/calls-${run}`, { permissions: [{ actions_matching: 'payloads:List' }], payload_types: ['SMS', 'Call'], alert_permissions: NO_ALERTS });
    expect(calls.body.errors).toEqual(['body.payload_types: You cannot grant more than your own roles allow. It opens payload types your roles do not: Call']);
    const alerts = await send(narrow, 'PUT', `/roles/sec-${run}`, { permissions: [{ actions_matching: 'roles:List' }], payload_types: [], alert_permissions: { ...NO_ALERTS, sec_read: true } });
    expect(alerts.body.errors).toEqual(['body.alert_permissions: You cannot grant more than your own roles allow. It gives alert permissions your roles do not: sec_read']);
    for (const name of ['all', 'regex', 'calls', 'sec']) expect((await asAdmin('GET', `/roles/${name}-${run}`)).status).toBe(404);
  });

  it('may create a role within its own; then cannot widen that one either', async () => {
    const within = { permissions: [{ actions_matching: 'roles:List' }, { actions_matching: 'payloads:List' }], payload_types: ['SMS'], alert_permissions: NO_ALERTS };
    const created = await send(narrow, 'PUT', `/roles/lister-${run}`, within);
    expect(created.status, created.text).toBe(200);
    const widened = await send(narrow, 'PUT', `/roles/lister-${run}`, { ...within, permissions: [{ actions_matching: 'payloads:*' }] });
    expect(widened.status).toBe(403);
    expect(widened.body.errors?.[0]).toMatch(/^body\.permissions: You cannot grant more than your own roles allow\. It allows payloads:/);
  });

  it('cannot change or delete a role broader than its own, even to narrow it', async () => {
    const changed = await send(narrow, 'PUT', `/roles/devices-${run}`, { permissions: [{ actions_matching: 'roles:List' }], payload_types: [], alert_permissions: NO_ALERTS });
    expect(changed.status, changed.text).toBe(403);
    expect(changed.body.errors?.[0]).toMatch(new RegExp(`^params\\.role_reference: Role "devices-${run}" already grants more than your roles, so you cannot change it\\. It allows devices:`));
    const deleted = await send(narrow, 'DELETE', `/roles/devices-${run}`);
    expect(deleted.status, deleted.text).toBe(403);
    expect((await asAdmin('GET', `/roles/devices-${run}`)).body).toMatchObject({ permissions: [{ actions_matching: 'devices:*' }] });
  });

  it('leaves system roles read-only (409) for everyone, the admin included', async () => {
    const answer = await asAdmin('PUT', '/roles/admin', { permissions: [{ actions_matching: 'roles:List' }], alert_permissions: NO_ALERTS });
    expect(answer.status, answer.text).toBe(409);
    expect((await asAdmin('DELETE', '/roles/admin')).status).toBe(409);
  });
});

describe('the same role through support mode', () => {
  it('changes no role at all, whatever the role allows: support mode creates nothing that outlives its grant', async () => {
    const refusedLine = "Support mode cannot create, change or delete roles; ask the tenant's administrator";
    const widened = await send(narrowSupport, 'PUT', `/roles/${NARROW}`, { permissions: [{ actions_matching: '*' }], alert_permissions: NO_ALERTS });
    expect(widened.status, widened.text).toBe(403);
    expect(widened.body.message).toBe(refusedLine);
    // Even a role within its own, which a tenant user holding it may save (above).
    const within = { permissions: [{ actions_matching: 'roles:List' }], payload_types: ['SMS'], alert_permissions: NO_ALERTS };
    const created = await send(narrowSupport, 'PUT', `/roles/support-${run}`, within);
    expect(created.status, created.text).toBe(403);
    expect(created.body.message).toBe(refusedLine);
    expect((await asAdmin('GET', `/roles/support-${run}`)).status).toBe(404);
    expect((await send(narrowSupport, 'GET', `/roles/${NARROW}`)).status).toBe(200);
  });
});

describe('giving a role', () => {
  const app = (roles: string[]) => ({
    oidc_config: { issuer: `https://idp-${run}.example.com`, audience: `escalate-${run}`, jwks_uri: `https://idp-${run}.example.com/jwks` },
    roles,
    cidr_ranges: [],
  });

  it('refuses a client app given the admin role, naming the role and why', async () => {
    const created = await send(assigner, 'POST', `/account/apps/escalator-${run}`, app([`sms-${run}`, 'admin']));
    expect(created.status, created.text).toBe(403);
    expect(created.body.errors?.[0]).toMatch(/^body\.roles\.1: Role "admin" grants more than your own roles, so you cannot give it\. It allows /);
    expect((await asAdmin('GET', `/account/apps/escalator-${run}`)).status).toBe(404);
  });

  it('refuses making admin the account default role, and leaves the defaults as they were', async () => {
    const before = (await asAdmin('GET', '/account/defaults')).body;
    const answer = await send(assigner, 'PUT', '/account/defaults', { role: 'admin', cidr_ranges: [] });
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body.errors?.[0]).toMatch(/^body\.role: Role "admin" grants more than your own roles, so you cannot give it\./);
    expect((await asAdmin('GET', '/account/defaults')).body).toEqual(before);
  });

  it('refuses a role-manager giving a role to staff through a support-access approval (the guard the decision runs)', async () => {
    const stored = await deps.table.get(keys.role.item(CLIENT, NARROW));
    const access = createAccessContext({ roles: [readRole(stored as NonNullable<typeof stored>)], ip: '127.0.0.1', isClientApp: false });
    const approver = tenantCaller(deps, CLIENT, access, { action: 'supportAccess:Decide' });
    const refusal = await assertAssignedWithinOwn(approver, [{ path: 'params.request_reference', role: 'admin' }], { unknown: 'refuse' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ForbiddenError);
    expect((refusal as ForbiddenError).lines[0]).toMatch(/^params\.request_reference: Role "admin" grants more than your own roles, so you cannot give it\. It allows /);
    const gone = await assertAssignedWithinOwn(approver, [{ path: 'params.request_reference', role: `gone-${run}` }], { unknown: 'refuse' }).catch((error: unknown) => error);
    expect((gone as ForbiddenError).lines).toEqual([`params.request_reference: Role "gone-${run}" is not a role of this tenant, so you cannot give it`]);
    await expect(assertAssignedWithinOwn(approver, [{ path: 'params.request_reference', role: `sms-${run}` }], { unknown: 'refuse' })).resolves.toBeUndefined();
  });
});
