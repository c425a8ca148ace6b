import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { createTestIssuer, type TestIssuer } from '#core/testing/test-tokens.ts';
import { runJob } from '../../lambdas/jobs/jobs.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';
import { TENANT_STAND_IN_HOST } from './support/tenant-stand-ins.ts';

/**
 * Security events raise sec alerts through the engine (lambdas/alerts/security-events.ts): CIDR refusals,
 * role changes, support-access decisions and refused client-app tokens. Alerts are read back the way the portal
 * reads them (`GET /api/v1/demo/alerts?alert_scope=sec` as admin@demo.test) and found by their key or reference;
 * every key this file makes carries this run's id.
 */
const run = randomUUID().replace(/-/g, '').slice(0, 10).toLowerCase();
/** The list's date filter format (`1999-01-01-165000`, UTC), a few seconds before this file started. */
const since = new Date(Date.now() - 5000).toISOString().replace(/\.\d+Z$/, '').replace('T', '-').replace(/:/g, '');
let deps: Dependencies;
let server: Server;
const issuers = new Map<string, TestIssuer>();
let admin: string;
let staff: string;

interface Alert {
  alert_reference: string;
  alert_type: string;
  alert_key?: string;
  alert_key_type?: string;
  alert_severity: string;
  alert_state: string;
  alert_subject: string;
  alert_message: string;
  related_entities?: Array<{ api_link?: string; page_link?: string }>;
  occurrences?: Array<{ time: string; message: string }>;
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await api(path, {
    method,
    headers: bearer(token, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** Every sec alert of demo since this file started (all pages). */
async function secAlerts(): Promise<Alert[]> {
  const all: Alert[] = [];
  let cursor: string | undefined;
  do {
    const query = `alert_scope=sec&from=${encodeURIComponent(since)}&limit=100${cursor ? `&last_key=${encodeURIComponent(cursor)}` : ''}`;
    const page = await call('GET', `/api/v1/demo/alerts?${query}`, admin);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    all.push(...(page.body.data as Alert[]));
    cursor = page.body.last_key as string | undefined;
  } while (cursor !== undefined);
  return all;
}

async function readAlert(reference: string): Promise<Alert> {
  const read = await call('GET', `/api/v1/demo/alerts/${reference}`, admin);
  expect(read.status).toBe(200);
  return read.body as unknown as Alert;
}

/** A client app of demo with its own issuer (key set served by this file's server). */
async function addApp(name: string, appRoles: string[], cidrRanges: string[]): Promise<TestIssuer> {
  const reference = `${name}-${run}`;
  const issuer = await createTestIssuer(`https://${reference}.example.com`, `aud-${reference}`);
  issuers.set(reference, issuer);
  const port = (server.address() as AddressInfo).port;
  await deps.table.put({
    ...keys.clientApp.item('demo', reference),
    client: 'demo',
    app_reference: reference,
    oidc_config: { issuer: issuer.issuer, audience: issuer.audience, jwks_uri: `http://${TENANT_STAND_IN_HOST}:${port}/jwks/${reference}` },
    roles: appRoles,
    cidr_ranges: cidrRanges,
    updated_at: new Date().toISOString(),
  });
  return issuer;
}

const CLIENT_APP_PATH = '/api/v1/demo/account/retention';

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  server = createServer((request, response) => {
    const reference = (request.url ?? '').split('/').pop() ?? '';
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(issuers.get(reference)?.jwks ?? { keys: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, TENANT_STAND_IN_HOST, resolve));
  [admin, staff] = await Promise.all(['admin@demo.test', 'staff@verity.test'].map(async (email) => (await signIn(email)).id_token)) as [
    string,
    string,
  ];
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('CIDR refusals', () => {
  it("makes one open Scoped alert per (caller, ip) for 5 refusals in a row by the client app's ranges", async () => {
    const app = await addApp('cidrapp', ['reviewer'], ['10.0.0.0/8']);
    const token = await app.sign({ sub: 'bot' });
    for (let index = 0; index < 5; index += 1) {
      const refused = await call('GET', CLIENT_APP_PATH, token);
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.message).toMatch(/outside the client app's allowed CIDR ranges$/);
    }
    const found = (await secAlerts()).filter((alert) => alert.alert_key?.startsWith(`cidr-refused:cidrapp-${run}:`));
    expect(found).toHaveLength(1);
    const alert = await readAlert((found[0] as Alert).alert_reference);
    expect(alert).toMatchObject({
      alert_type: 'PortalUserAlert',
      alert_key_type: 'Scoped',
      alert_severity: 'Medium',
      alert_state: 'Triggered',
      alert_subject: 'Call refused by CIDR ranges',
    });
    expect(alert.occurrences).toHaveLength(5);
    expect(alert.alert_message).toMatch(new RegExp(`^Client app cidrapp-${run} from .+ was refused retention:Read`));
    expect(alert.related_entities).toEqual([
      { api_link: `/api/v1/demo/activities?portal_user=cidrapp-${run}`, page_link: `/dashboard/account/audit?portal_user=cidrapp-${run}` },
    ]);
  });

  it("raises for a role's own ranges, and not for a refusal that has nothing to do with the network", async () => {
    const role = `net${run}`;
    await deps.table.put({
      ...keys.role.item('demo', role),
      client: 'demo',
      role_reference: role,
      permissions: [{ actions_matching: '*', is_denied: false, is_regex: false }],
      payload_types: [],
      cidr_ranges: ['10.0.0.0/8'],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      updated_at: new Date().toISOString(),
    });
    const inRole = await addApp('roleapp', [role], []);
    const refused = await call('GET', CLIENT_APP_PATH, await inRole.sign());
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/is outside the CIDR ranges of role/);
    // An app whose roles simply do not grant the action: a 403, but no CIDR alert.
    const noRole = await addApp('norole', [`missing-${run}`], []);
    const plain = await call('GET', CLIENT_APP_PATH, await noRole.sign());
    expect(plain.status, JSON.stringify(plain.body)).toBe(403);

    const alerts = await secAlerts();
    expect(alerts.filter((alert) => alert.alert_key?.startsWith(`cidr-refused:roleapp-${run}:`))).toHaveLength(1);
    expect(alerts.filter((alert) => alert.alert_key?.includes(`norole-${run}`))).toHaveLength(0);
  });
});

describe('role changes', () => {
  it('raise a Transient AccountAlert per create, replace and delete, naming the role, who changed it and from where; High when it grants more', async () => {
    const role = `audited-${run}`;
    const body = {
      permissions: [{ actions_matching: 'devices:List', is_denied: false, is_regex: false }],
      payload_types: [],
      cidr_ranges: [],
      alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
      is_alertable: false,
    };
    expect((await call('PUT', `/api/v1/demo/roles/${role}`, admin, body)).status).toBe(200);
    expect((await call('PUT', `/api/v1/demo/roles/${role}`, admin, { ...body, description: 'again' })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/demo/roles/${role}`, admin)).status).toBe(200);
    // A refused change (unknown role) changes nothing and raises nothing.
    expect((await call('DELETE', `/api/v1/demo/roles/${role}`, admin)).status).toBe(404);

    const found = (await secAlerts()).filter((alert) => alert.alert_key === `role-changed:${role}`);
    const by = 'by Dana Admin \\(admin@demo\\.test\\) from (?:127\\.0\\.0\\.1|::1|::ffff:127\\.0\\.0\\.1)';
    const sorted = [...found].sort((a, b) => a.alert_message.localeCompare(b.alert_message));
    expect(sorted.map((alert) => [alert.alert_subject, alert.alert_severity])).toEqual([
      ['Role created, granting more', 'High'],
      ['Role deleted', 'Low'],
      ['Role replaced', 'Low'],
    ]);
    expect(sorted.map((alert) => alert.alert_message)).toEqual([
      expect.stringMatching(new RegExp(`^Role "${role}" was created ${by}; it grants more than before: It allows devices:List beyond what it allowed before\\.`)),
      expect.stringMatching(new RegExp(`^Role "${role}" was deleted ${by}$`)),
      expect.stringMatching(new RegExp(`^Role "${role}" was replaced ${by}$`)),
    ]);
    for (const alert of found) {
      expect(alert).toMatchObject({ alert_type: 'AccountAlert', alert_key_type: 'Transient' });
      expect(alert.related_entities?.[0]?.api_link).toMatch(/^\/api\/v1\/demo\/activities\?portal_user=/);
    }
  });
});

describe('support access', () => {
  const ask = async () => {
    const created = await call('POST', '/internal/v1/clients/demo/supportaccess', staff, {
      role: 'reviewer',
      request_description: `security alerts ${run}`,
      requested_expiry: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.request_reference as string;
  };
  const decide = (reference: string, decision: Record<string, unknown>) => call('PUT', `/api/v1/demo/supportaccess/${reference}`, admin, decision);

  it('raises a Transient AccountAlert for each request, decision and withdrawal: High for approval, Medium otherwise', async () => {
    const approved = await ask();
    expect((await decide(approved, { approval_state: 'approved' })).status).toBe(200);
    expect((await decide(approved, { approval_state: 'revoked' })).status).toBe(200);
    const rejected = await ask();
    expect((await decide(rejected, { approval_state: 'rejected', rejection_reason: 'not now' })).status).toBe(200);
    const canceled = await ask();
    expect((await call('DELETE', `/internal/v1/clients/demo/supportaccess/${canceled}`, staff)).status).toBe(200);
    // Refused (409): no alert.
    expect((await decide(rejected, { approval_state: 'approved' })).status).toBe(409);

    // Expired by the job: a pending request already past its requested expiry, written directly.
    const expired = `01J${run.toUpperCase().replace(/[ILOU]/g, '0')}0000000000000`.slice(0, 26);
    const past = new Date(Date.now() - 60_000).toISOString();
    await deps.table.put({
      ...keys.supportAccess.item('demo', expired, 'pending'),
      client: 'demo',
      request_reference: expired,
      requested_by: 'staff@verity.test',
      role: 'reviewer',
      request_description: 'expires',
      requested_expiry: past,
      approval_state: 'pending',
      created_at: past,
      updated_at: past,
      updated_by: 'staff@verity.test',
    });
    await runJob(deps, 'support-access-expiry');

    const alerts = await secAlerts();
    const of = (reference: string) =>
      alerts
        .filter((alert) => alert.alert_key?.startsWith(`support-access:${reference}:`))
        .map((alert) => `${alert.alert_subject}/${alert.alert_severity}`)
        .sort();
    expect(of(approved)).toEqual(['Support access approved/High', 'Support access requested/Medium', 'Support access revoked/Medium']);
    expect(of(rejected)).toEqual(['Support access rejected/Medium', 'Support access requested/Medium']);
    expect(of(canceled)).toEqual(['Support access canceled/Medium', 'Support access requested/Medium']);
    expect(of(expired)).toEqual(['Support access expired/Medium']);

    const approval = alerts.find((alert) => alert.alert_key === `support-access:${approved}:approved`) as Alert;
    expect(approval).toMatchObject({ alert_type: 'AccountAlert', alert_key_type: 'Transient' });
    expect(approval.alert_message).toMatch(new RegExp(`^Support access request ${approved} for role "reviewer" was approved until .+ by Dana Admin \\(admin@demo\\.test\\)$`));
    expect(approval.related_entities).toEqual([
      { api_link: `/api/v1/demo/supportaccess/${approved}`, page_link: `/dashboard/account/support-access?request=${approved}` },
    ]);
  });
});

describe('refused client-app tokens', () => {
  it('raise one Scoped Medium AccountAlert per app (wrong audience, bad signature) and one for unknown issuers', async () => {
    const app = await addApp('tokens', ['reviewer'], []);
    // Signed with a key the app's key set holds, so only the audience is wrong.
    const wrongAudience = await createTestIssuer(app.issuer, 'someone-else');
    app.jwks.keys.push({ ...(wrongAudience.jwks.keys[0] as Record<string, unknown>), kid: 'audience-key' });
    const forged = await createTestIssuer(app.issuer, app.audience);
    expect((await call('GET', CLIENT_APP_PATH, await wrongAudience.sign({}, { kid: 'audience-key' }))).status).toBe(401);
    expect((await call('GET', CLIENT_APP_PATH, await forged.sign())).status).toBe(401);
    // Expired is routine (clock), not an attack: no occurrence.
    expect((await call('GET', CLIENT_APP_PATH, await app.sign({}, { expiresIn: Math.floor(Date.now() / 1000) - 600 }))).status).toBe(401);
    const stranger = await createTestIssuer(`https://stranger-${run}.example.com`, 'x');
    expect((await call('GET', CLIENT_APP_PATH, await stranger.sign())).status).toBe(401);
    // acme has no client apps: a stray issuer there is not an event.
    expect((await call('GET', '/api/v1/acme/account/retention', await stranger.sign())).status).toBe(401);

    const alerts = await secAlerts();
    const forApp = alerts.filter((alert) => alert.alert_key === `client-app-token-refused:app:tokens-${run}`);
    expect(forApp).toHaveLength(1);
    const read = await readAlert((forApp[0] as Alert).alert_reference);
    expect(read).toMatchObject({ alert_type: 'AccountAlert', alert_key_type: 'Scoped', alert_severity: 'Medium' });
    expect(read.occurrences?.map((occurrence) => occurrence.message.replace(/^.*: /, ''))).toEqual(['Token audience invalid', 'Token signature invalid']);

    const unknown = alerts.filter((alert) => alert.alert_key === 'client-app-token-refused:unknown-issuer' && alert.alert_state === 'Triggered');
    expect(unknown).toHaveLength(1);
    const occurrences = (await readAlert((unknown[0] as Alert).alert_reference)).occurrences ?? [];
    expect(occurrences.filter((occurrence) => occurrence.message.includes(`stranger-${run}`))).toHaveLength(1);
  });
});
