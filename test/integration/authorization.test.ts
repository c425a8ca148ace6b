import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { createTestIssuer, type TestIssuer } from '#core/testing/test-tokens.ts';
import { signIn } from './support/sign-in.ts';
import { api, stack } from './support/stack.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * The authorization step end to end on the local stack: roles from the group claim, role CIDR ranges, support mode
 * by request state, and a tenant client app's own tokens. Items this file needs are written directly with the key
 * builders and carry this run's id, so other files and reruns never meet them.
 */
const run = randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase();
let deps: Dependencies;
let server: Server;
let appIssuer: TestIssuer;
const now = new Date().toISOString();

const alerts = { ops_read: false, ops_write: false, sec_read: false, sec_write: false };

async function status(method: string, path: string, authorization: string): Promise<{ status: number; message?: string }> {
  const response = await api(path, { method, headers: { authorization } });
  const body = (await response.json()) as { message?: string };
  return { status: response.status, message: body.message };
}

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  server = createServer((_, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(appIssuer.jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, TENANT_STAND_IN_HOST, resolve));
  const jwksUri = `http://${TENANT_STAND_IN_HOST}:${(server.address() as AddressInfo).port}/jwks`;
  appIssuer = await createTestIssuer(`https://apps-${run.toLowerCase()}.example.com`, `reporting-${run}`);

  const outside = `office${run}`.slice(0, 35);
  await deps.table.put({
    ...keys.role.item('demo', outside),
    client: 'demo',
    role_reference: outside,
    permissions: [{ actions_matching: '*', is_denied: false, is_regex: false }],
    payload_types: ['Call'],
    cidr_ranges: ['10.0.0.0/8'],
    alert_permissions: alerts,
    updated_at: now,
  });
  const request = (reference: string, state: string, expiry: string, role = 'admin') => ({
    ...keys.supportAccess.item('demo', reference, state),
    client: 'demo',
    request_reference: reference,
    role,
    request_description: 'authorization test',
    requested_expiry: expiry,
    approval_state: state,
    approval_expiry: expiry,
    // A whole stored request, as the support-access service writes one: other tests list demo's requests.
    requested_by: 'staff@verity.test',
    created_at: now,
    updated_at: now,
    updated_by: 'staff@verity.test',
  });
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const earlier = new Date(Date.now() - 60_000).toISOString();
  for (const item of [
    request(`A${run}`, 'approved', later),
    request(`E${run}`, 'approved', earlier),
    request(`R${run}`, 'revoked', later),
    request(`P${run}`, 'pending', later),
    request(`C${run}`, 'approved', later, outside),
  ]) {
    await deps.table.put(item);
  }
  await deps.table.put({
    ...keys.clientApp.item('demo', `reporting-${run}`),
    client: 'demo',
    app_reference: `reporting-${run}`,
    oidc_config: { issuer: appIssuer.issuer, audience: appIssuer.audience, jwks_uri: jwksUri },
    roles: ['reviewer'],
    cidr_ranges: [],
    updated_at: now,
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('authorization on the local stack', () => {
  it('refuses reviewer@demo.test an update while admin@demo.test passes the authorization step', async () => {
    const reviewer = (await signIn('reviewer@demo.test')).id_token;
    const admin = (await signIn('admin@demo.test')).id_token;
    const missing = `/api/v1/demo/roles/nothing-${run}`;
    const refused = await status('DELETE', missing, `Bearer ${reviewer}`);
    expect(refused).toEqual({ status: 403, message: 'Access denied: your roles do not allow deleting roles (roles:Delete)' });
    expect([200, 204, 404, 409, 501]).toContain((await status('DELETE', missing, `Bearer ${admin}`)).status);
    expect((await status('GET', '/api/v1/demo/roles', `Bearer ${reviewer}`)).status).toBe(200);
  });

  it('lets staff act in support mode only with an approved, unexpired request', async () => {
    const staff = (await signIn('staff@verity.test')).id_token;
    const as = (reference: string) => `internal-${reference} ${staff}`;
    expect((await status('GET', '/api/v1/demo/roles', as(`A${run}`))).status).toBe(200);
    expect(await status('GET', '/api/v1/demo/roles', as(`E${run}`))).toMatchObject({ status: 403, message: expect.stringMatching(/expired/) });
    expect(await status('GET', '/api/v1/demo/roles', as(`R${run}`))).toMatchObject({ status: 403, message: expect.stringMatching(/is revoked$/) });
    expect(await status('GET', '/api/v1/demo/roles', as(`P${run}`))).toMatchObject({ status: 403, message: expect.stringMatching(/is pending$/) });
    expect((await status('GET', '/api/v1/demo/roles', as(`NOSUCH${run}`))).status).toBe(403);
    // Support mode is for staff only.
    const admin = (await signIn('admin@demo.test')).id_token;
    expect((await status('GET', '/api/v1/demo/roles', `internal-A${run} ${admin}`)).status).toBe(403);
  });

  it('refuses a role from outside its CIDR ranges, saying why', async () => {
    const staff = (await signIn('staff@verity.test')).id_token;
    const refused = await status('GET', '/api/v1/demo/roles', `internal-C${run} ${staff}`);
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/^Access denied: (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1) is outside the CIDR ranges of role "office/);
  });

  it("accepts a client app's own token on a client-app endpoint and refuses a wrong audience", async () => {
    const path = '/api/v1/demo/account/retention';
    const accepted = await status('GET', path, `Bearer ${await appIssuer.sign({ sub: 'bot' })}`);
    expect([200, 404, 501]).toContain(accepted.status);
    const wrongAudience = await createTestIssuer(appIssuer.issuer, 'someone-else');
    expect((await status('GET', path, `Bearer ${await wrongAudience.sign()}`)).status).toBe(401);
    const stranger = await createTestIssuer('https://stranger.example.com', appIssuer.audience);
    expect((await status('GET', path, `Bearer ${await stranger.sign()}`)).status).toBe(401);
    // Not on a user-only endpoint.
    expect((await status('GET', '/api/v1/demo/roles', `Bearer ${await appIssuer.sign()}`)).status).toBe(401);
  });
});
