import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '#shared/contract/endpoint.ts';
import { createFixedClock } from '../adapters/local/clocks.ts';
import type { UserActivityEntry } from './activity.ts';
import { useClientAppEgressCheck } from '../auth/client-app-tokens.ts';
import { createOidcTokenVerifier } from '../auth/jwt-verifier.ts';
import { dnsResolver, egressAllowList } from '../egress/egress-policy.ts';
import type { ActivityLog } from '../ports/activity-log.ts';
import type { TableItem } from '../ports/table-store.ts';
import { keys } from '../store/keys.ts';
import { bodyOf, eventFor, testContext, testDependencies } from '../testing/http-events.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { createTestIssuer, type TestIssuer } from '../testing/test-tokens.ts';
import { apiRecorders } from '../../api-recorders.ts';
import { createHttpHandler } from './create-http-handler.ts';
import { implement } from './route.ts';

/** One entry per call: a change's record is opened before it acts and closed (replaced here) with its outcome. */
const recorded: Array<{ client: string; entry: UserActivityEntry }> = [];
const acted: string[] = [];
/** The activity log port kept in memory; it cannot write the record of one action and of one thing, as a store that is down. */
const memoryActivityLog: ActivityLog = {
  write: async (_, { client, entry, trail }) => {
    const user = entry as UserActivityEntry;
    if (user.action === 'things:Explode' || user.parameters?.id === 'unrecordable') throw new Error('audit store down');
    recorded.push({ client, entry: user });
    const index = String(recorded.length - 1);
    return { trail, client, key: { pk: index, sk: index }, logId: index };
  },
  close: async (_, ref, entry) => {
    (recorded[Number(ref.logId)] as { entry: UserActivityEntry }).entry = entry as UserActivityEntry;
  },
};

const base = { group: 'devices', summary: 's', response: z.object({ ok: z.boolean(), roles: z.array(z.string()).optional() }) } as const;
const readThing = defineEndpoint({ ...base, id: 'admin.things.read', surface: 'admin', method: 'GET', path: '/things/{id}', auth: 'user', action: 'things:Read', params: z.strictObject({ id: z.string() }) });
const updateThing = defineEndpoint({ ...base, id: 'admin.things.update', surface: 'admin', method: 'PUT', path: '/things/{id}', auth: 'user', action: 'things:Update', params: z.strictObject({ id: z.string() }) });
const explode = defineEndpoint({ ...base, id: 'admin.things.explode', surface: 'admin', method: 'POST', path: '/explode', auth: 'user', action: 'things:Explode' });
const appThings = defineEndpoint({ ...base, id: 'client.things.list', surface: 'client', method: 'GET', path: '/things', auth: 'client-app', action: 'things:List' });
const ENDPOINTS: Endpoint[] = [readThing, updateThing, explode, appThings];

const role = (client: string, reference: string, patterns: string[], extra: Record<string, unknown> = {}): TableItem => ({
  ...keys.role.item(client, reference),
  role_reference: reference,
  permissions: patterns.map((actions_matching) => ({ actions_matching })),
  payload_types: ['Call'],
  alert_permissions: { ops_read: false, ops_write: false, sec_read: false, sec_write: false },
  ...extra,
});
const support = (reference: string, state: string, expiry: string, roleName = 'admin'): TableItem => ({
  ...keys.supportAccess.item('acme', reference, state),
  request_reference: reference,
  role: roleName,
  requested_expiry: expiry,
  approval_state: state,
  approval_expiry: expiry,
});

let issuer: TestIssuer;
let appIssuer: TestIssuer;
let server: Server;
let jwksUri: string;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  issuer = await createTestIssuer();
  server = createServer((_, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(appIssuer.jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksPort = (server.address() as AddressInfo).port;
  jwksUri = `http://127.0.0.1:${jwksPort}/jwks`;
  // The app's key set is served on loopback, which the egress policy refuses unless excepted, as the local stack does.
  useClientAppEgressCheck({ resolve: dnsResolver, allowList: egressAllowList([`127.0.0.1:${jwksPort}`]) });
  appIssuer = await createTestIssuer('https://apps.example.com', 'acme-reporting');
  tokens.admin = await issuer.sign({ 'custom:client': 'acme', 'cognito:groups': ['admin'] });
  tokens.reviewer = await issuer.sign({ 'custom:client': 'acme', 'cognito:groups': ['reviewer', 'no-such-role'] });
  tokens.nobody = await issuer.sign({ 'custom:client': 'acme', 'cognito:groups': ['ghost'] });
  tokens.office = await issuer.sign({ 'custom:client': 'acme', 'cognito:groups': ['office'] });
  tokens.staff = await issuer.sign({ 'custom:client': 'admin', 'cognito:groups': ['staff'], sub: 'staff-1' });
  tokens.app = await appIssuer.sign({ sub: 'reporting-bot' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  recorded.length = 0;
  acted.length = 0;
});

function setup(extra: TableItem[] = []) {
  const clock = createFixedClock('2025-06-01T12:00:00.000Z');
  const table = createMemoryTable([
    role('acme', 'admin', ['*']),
    role('acme', 'reviewer', ['*:Read', '*:List']),
    role('acme', 'office', ['*'], { cidr_ranges: ['10.0.0.0/8'] }),
    { ...keys.account.setting('acme', 'DEFAULTS'), entity: 'Account', role: 'reviewer', cidr_ranges: [] },
    {
      ...keys.clientApp.item('acme', 'reporting'),
      app_reference: 'reporting',
      oidc_config: { issuer: appIssuer.issuer, audience: appIssuer.audience, jwks_uri: jwksUri },
      roles: ['reviewer'],
      cidr_ranges: [],
    },
    ...extra,
  ]);
  const verifier = createOidcTokenVerifier({ issuer: issuer.issuer, audiences: [issuer.audience], keySource: issuer.keySource });
  const logLines: string[] = [];
  const ok = async (input: { access?: { roleReferences: readonly string[] } }) => {
    acted.push('acted');
    return { ok: true, roles: [...(input.access?.roleReferences ?? [])] };
  };
  const handler = createHttpHandler({
    group: 'devices',
    endpoints: ENDPOINTS,
    routes: {
      [readThing.id]: implement(readThing, ok),
      [updateThing.id]: implement(updateThing, ok),
      [explode.id]: implement(explode, ok),
      [appThings.id]: implement(appThings, ok),
    },
    dependencies: testDependencies({ tokens: verifier, table, clock, logLines }),
    recorders: { ...apiRecorders, activityLog: memoryActivityLog },
  });
  const call = async (endpoint: Endpoint, authorization: string, options: { ip?: string; id?: string } = {}) => {
    const event = eventFor(endpoint, { pathParameters: { client: 'acme', ...(options.id ? { id: options.id } : {}) }, headers: { authorization, 'user-agent': 'vitest' } });
    if (options.ip) event.requestContext.http.sourceIp = options.ip;
    const result = await handler(event, testContext);
    return { status: result.statusCode, body: bodyOf(result) };
  };
  return { call, table, clock, logLines };
}

describe('authorization step', () => {
  it('lets roles decide: admin may update, reviewer may only read', async () => {
    const { call } = setup();
    expect(await call(updateThing, `Bearer ${tokens.admin}`, { id: 'x' })).toEqual({ status: 200, body: { ok: true, roles: ['admin'] } });
    expect(await call(readThing, `Bearer ${tokens.reviewer}`, { id: 'x' })).toMatchObject({ status: 200, body: { roles: ['reviewer'] } });
    const refused = await call(updateThing, `Bearer ${tokens.reviewer}`, { id: 'x' });
    expect(refused).toMatchObject({ status: 403, body: { message: 'Access denied: your roles do not allow things:Update' } });
  });

  it('falls back to the account default role when no group names a role', async () => {
    const { call } = setup();
    expect(await call(readThing, `Bearer ${tokens.nobody}`, { id: 'x' })).toMatchObject({ status: 200, body: { roles: ['reviewer'] } });
    expect((await call(updateThing, `Bearer ${tokens.nobody}`, { id: 'x' })).status).toBe(403);
  });

  it('enforces role and account CIDR ranges with a 403 that says why', async () => {
    const { call, table } = setup();
    expect((await call(updateThing, `Bearer ${tokens.office}`, { id: 'x', ip: '10.1.2.3' })).status).toBe(200);
    expect(await call(updateThing, `Bearer ${tokens.office}`, { id: 'x' })).toMatchObject({
      status: 403,
      body: { message: 'Access denied: 127.0.0.1 is outside the CIDR ranges of role "office"' },
    });
    await table.put({ ...keys.account.setting('acme', 'DEFAULTS'), entity: 'Account', role: 'reviewer', cidr_ranges: ['192.168.0.0/16'] });
    expect(await call(readThing, `Bearer ${tokens.admin}`, { id: 'x' })).toMatchObject({
      status: 403,
      body: { message: "Access denied: 127.0.0.1 is outside the account's allowed CIDR ranges" },
    });
  });

  it('lets staff act in support mode only while the request is approved and unexpired', async () => {
    const { call } = setup([
      support('REQAPPROVED', 'approved', '2025-06-02T00:00:00Z'),
      support('REQEXPIRED', 'approved', '2025-06-01T11:59:59Z'),
      support('REQREVOKED', 'revoked', '2025-06-02T00:00:00Z'),
      support('REQPENDING', 'pending', '2025-06-02T00:00:00Z'),
      support('REQSTAFFROLE', 'approved', '2025-06-02T00:00:00Z', 'staff'),
      role('admin', 'staff', ['*:Read']),
    ]);
    const as = (reference: string) => `internal-${reference} ${tokens.staff}`;
    expect(await call(updateThing, as('REQAPPROVED'), { id: 'x' })).toMatchObject({ status: 200, body: { roles: ['admin'] } });
    expect((await call(updateThing, as('REQEXPIRED'), { id: 'x' })).body.message).toBe(
      'Support access denied: request REQEXPIRED expired at 2025-06-01T11:59:59Z',
    );
    expect((await call(updateThing, as('REQREVOKED'), { id: 'x' })).body.message).toBe('Support access denied: request REQREVOKED is revoked');
    expect((await call(updateThing, as('REQPENDING'), { id: 'x' })).body.message).toBe('Support access denied: request REQPENDING is pending');
    // A system role of the provider, limited to reads.
    expect((await call(readThing, as('REQSTAFFROLE'), { id: 'x' })).status).toBe(200);
    expect((await call(updateThing, as('REQSTAFFROLE'), { id: 'x' })).status).toBe(403);
    expect((await call(updateThing, `internal-REQAPPROVED ${tokens.admin}`, { id: 'x' })).status).toBe(403);
    const entries = recorded.filter((record) => record.entry.support_reference !== undefined);
    expect(entries.every((record) => record.client === 'acme')).toBe(true);
    expect(entries.map((record) => record.entry.is_allowed)).toEqual([true, false, false, false, true, false, false]);
  });

  it('accepts a client app token from its own issuer, with the app roles, and refuses another audience', async () => {
    const { call } = setup();
    expect(await call(appThings, `Bearer ${tokens.app}`)).toMatchObject({ status: 200, body: { roles: ['reviewer'] } });
    const wrong = await createTestIssuer(appIssuer.issuer, 'someone-else');
    expect((await call(appThings, `Bearer ${await wrong.sign()}`)).status).toBe(401);
    const unknown = await createTestIssuer('https://unknown.example.com', appIssuer.audience);
    expect((await call(appThings, `Bearer ${await unknown.sign()}`)).status).toBe(401);
    // Client-app tokens are for client-app endpoints only.
    expect((await call(readThing, `Bearer ${tokens.app}`, { id: 'x' })).status).toBe(401);
    expect(recorded.at(0)?.entry).toMatchObject({ user_id: 'app:reporting', is_client_app: true, roles: ['reviewer'] });
  });
});

describe('user activity', () => {
  it('records allowed and refused calls with who, where, what and why, and path parameters only', async () => {
    const { call } = setup();
    await call(readThing, `Bearer ${tokens.reviewer}`, { id: 'thing-1' });
    await call(updateThing, `Bearer ${tokens.reviewer}`, { id: 'thing-1' });
    expect(recorded).toEqual([
      {
        client: 'acme',
        entry: {
          user_id: 'user-1',
          actor: { reference: 'user-1', kind: 'user', email: 'ada@example.com' },
          user_ip: '127.0.0.1',
          browser: 'vitest',
          roles: ['reviewer'],
          action: 'things:Read',
          is_allowed: true,
          status_code: 200,
          activity_time: '2025-06-01T12:00:00.000Z',
          activity_end_time: '2025-06-01T12:00:00.000Z',
          duration: 0,
          parameters: { client: 'acme', id: 'thing-1' },
          is_client_app: false,
        },
      },
      expect.objectContaining({
        client: 'acme',
        entry: expect.objectContaining({ action: 'things:Update', is_allowed: false, status_code: 403, denial_reason: 'Access denied: your roles do not allow things:Update' }),
      }),
    ]);
  });

  it('records nothing for unverifiable tokens', async () => {
    const { call } = setup();
    expect((await call(readThing, 'Bearer nonsense', { id: 'x' })).status).toBe(401);
    expect(recorded).toEqual([]);
  });

  it('records a change before it acts, and closes the record with the outcome', async () => {
    const { call } = setup();
    expect((await call(updateThing, `Bearer ${tokens.admin}`, { id: 'thing-2' })).status).toBe(200);
    expect(recorded).toEqual([{ client: 'acme', entry: expect.objectContaining({ action: 'things:Update', is_allowed: true, status_code: 200, duration: 0 }) }]);
  });

  it('fails a change whose record cannot be written with a 500, before it acts', async () => {
    const { call, logLines } = setup();
    const answer = await call(explode, `Bearer ${tokens.admin}`);
    expect(answer).toMatchObject({ status: 500, body: { message: 'Internal Server Error' } });
    expect(acted).toEqual([]);
    expect(recorded).toEqual([]);
    expect(logLines.join('\n')).toContain('Activity not recorded');
  });

  it('withholds a read whose record cannot be written: 500, no data', async () => {
    const { call } = setup();
    const answer = await call(readThing, `Bearer ${tokens.admin}`, { id: 'unrecordable' });
    expect(answer.status).toBe(500);
    expect(answer.body).not.toHaveProperty('ok');
  });

  it('fails a refusal whose record cannot be written with a 500 too', async () => {
    const { call } = setup();
    expect((await call(updateThing, `Bearer ${tokens.reviewer}`, { id: 'unrecordable' })).status).toBe(500);
  });
});
