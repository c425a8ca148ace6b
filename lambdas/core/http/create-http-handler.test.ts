import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '#shared/contract/endpoint.ts';
import { createOidcTokenVerifier } from '../auth/jwt-verifier.ts';
import type { Principal } from '../auth/principal.ts';
import { keys } from '../store/keys.ts';
import { bodyOf, eventFor, testContext, testDependencies } from '../testing/http-events.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { createTestIssuer, type TestIssuer } from '../testing/test-tokens.ts';
import { createHttpHandler } from './create-http-handler.ts';
import { reply } from './reply.ts';
import { implement, type Routes } from './route.ts';
import { apiRecorders } from '../../api-recorders.ts';

const getThing = defineEndpoint({
  id: 'client.things.get',
  surface: 'client',
  method: 'GET',
  path: '/things/{thing_id}',
  auth: 'user',
  action: 'things:Get',
  group: 'devices',
  summary: 'One thing',
  params: z.strictObject({ thing_id: z.string().min(3).max(10) }),
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).optional() }),
  response: z.object({ id: z.string(), limit: z.number().optional(), client: z.string().optional() }),
});
const createThing = defineEndpoint({
  id: 'admin.things.create',
  surface: 'admin',
  method: 'POST',
  path: '/things',
  auth: 'user',
  action: 'things:Create',
  group: 'devices',
  summary: 'Create a thing',
  body: z.strictObject({ name: z.string().min(1).max(35), tags: z.array(z.string().max(20)).max(5).optional() }),
  response: z.object({ name: z.string() }),
});
const listThings = defineEndpoint({
  id: 'client.things.list',
  surface: 'client',
  method: 'GET',
  path: '/things',
  auth: 'client-app',
  action: 'things:List',
  group: 'devices',
  summary: 'Things',
  response: z.object({ count: z.number() }),
});
const metadata = defineEndpoint({
  id: 'admin.account.metadata',
  surface: 'admin',
  method: 'GET',
  path: '/account/metadata',
  auth: 'public',
  action: 'account:Metadata',
  group: 'devices',
  summary: 'Public metadata',
  response: z.object({ name: z.string() }),
});
const deviceUpload = defineEndpoint({
  id: 'device.logs.upload',
  surface: 'device',
  method: 'POST',
  path: '/logs',
  auth: 'device',
  action: 'logs:Upload',
  group: 'devices',
  summary: 'Upload logs',
  body: z.object({ logs: z.array(z.string()).min(1) }),
  response: z.object({}),
});
const internalClients = defineEndpoint({
  id: 'internal.clients.list',
  surface: 'internal',
  method: 'GET',
  path: '/clients/{client}/things',
  auth: 'user',
  action: 'clients:List',
  group: 'devices',
  summary: 'Staff view of a client',
  response: z.object({ count: z.number() }),
});
const otherGroup = defineEndpoint({
  id: 'client.alerts.list',
  surface: 'client',
  method: 'GET',
  path: '/alerts',
  auth: 'user',
  action: 'alerts:List',
  group: 'alerts',
  summary: 'Alerts',
  response: z.object({}),
});
const ENDPOINTS: Endpoint[] = [getThing, createThing, listThings, metadata, deviceUpload, internalClients, otherGroup];

let issuer: TestIssuer;
let tenantToken: string;
let staffToken: string;
let rolelessStaffToken: string;
beforeAll(async () => {
  issuer = await createTestIssuer();
  tenantToken = await issuer.sign({ 'custom:client': 'acme' });
  staffToken = await issuer.sign({ 'custom:client': 'admin', 'cognito:groups': ['staff'], sub: 'staff-1' });
  rolelessStaffToken = await issuer.sign({ 'custom:client': 'admin', sub: 'staff-2' });
});

/** The test tokens hold group `Admins`: a role allowing everything in tenant acme. */
function tenantRoles() {
  return createMemoryTable([
    {
      ...keys.role.item('acme', 'Admins'),
      role_reference: 'Admins',
      permissions: [{ actions_matching: '*' }],
      payload_types: [],
      cidr_ranges: [],
      alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
    },
  ]);
}

function setup(routes: Routes = {}, options: { validateResponses?: boolean } = {}) {
  const logLines: string[] = [];
  const tokens = createOidcTokenVerifier({ issuer: issuer.issuer, audiences: [issuer.audience], keySource: issuer.keySource });
  const handler = createHttpHandler({
    recorders: apiRecorders,
    group: 'devices',
    endpoints: ENDPOINTS,
    routes,
    dependencies: testDependencies({ tokens, logLines, validateResponses: options.validateResponses, table: tenantRoles() }),
  });
  const call = async (event: Parameters<typeof handler>[0]) => {
    const result: APIGatewayProxyStructuredResultV2 = await handler(event, testContext);
    return { status: result.statusCode, body: bodyOf(result), result };
  };
  return { call, logLines };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const acme = { client: 'acme' };

describe('createHttpHandler: dispatch', () => {
  it('answers 501 naming the endpoint when it has no implementation', async () => {
    const { call } = setup();
    const { status, body } = await call(eventFor(listThings, { pathParameters: acme, headers: bearer(tenantToken) }));
    expect(status).toBe(501);
    expect(body).toEqual({
      error_code: 501,
      message: 'Not implemented yet: GET /api/v1/{client}/things (client.things.list)',
      errors: ['Not implemented yet: GET /api/v1/{client}/things (client.things.list)'],
    });
  });

  it('gives the implementation parsed input and the principal', async () => {
    let seen: { query: unknown; params: unknown; client: unknown; principal?: Principal } = { query: 0, params: 0, client: 0 };
    const { call } = setup({
      [getThing.id]: implement(getThing, async (input) => {
        seen = input;
        return { id: input.params.thing_id, limit: input.query.limit, client: input.client };
      }),
    });
    const { status, body, result } = await call(
      eventFor(getThing, { pathParameters: { ...acme, thing_id: 'abc' }, query: { limit: '5' }, headers: bearer(tenantToken) }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ id: 'abc', limit: 5, client: 'acme' });
    expect(result.headers?.['content-type']).toMatch(/^application\/json/);
    expect(seen.params).toEqual({ thing_id: 'abc' });
    expect(seen.query).toEqual({ limit: 5 });
    expect(seen.principal).toMatchObject({ kind: 'user', client: 'acme', subject: 'user-1', groups: ['Admins'] });
  });

  it('lets an implementation choose the status with reply()', async () => {
    const { call } = setup({ [createThing.id]: implement(createThing, async ({ body }) => reply({ name: body.name }, { status: 201 })) });
    const { status, body } = await call(eventFor(createThing, { pathParameters: acme, body: '{"name":"n"}', headers: bearer(tenantToken) }));
    expect(status).toBe(201);
    expect(body).toEqual({ name: 'n' });
  });

  it('answers 404 for a route key it does not serve, including another group\'s', async () => {
    const { call } = setup();
    expect((await call(eventFor(otherGroup, { pathParameters: acme, headers: bearer(tenantToken) }))).status).toBe(404);
    expect((await call(eventFor(getThing, { routeKey: '$default' }))).status).toBe(404);
  });

  it('refuses at construction a route for an endpoint outside its group', () => {
    expect(() => setup({ [otherGroup.id]: async () => ({}) })).toThrow(/not an endpoint of group devices/);
  });
});

describe('createHttpHandler: validation comes before authentication', () => {
  it('answers 400 with params., query. lines even without a token', async () => {
    const { call } = setup();
    const { status, body } = await call(
      eventFor(getThing, { pathParameters: { client: 'ACME!', thing_id: 'x' }, query: { limit: '0', colour: 'red' } }),
    );
    expect(status).toBe(400);
    const errors = body.errors as string[];
    expect(errors.some((line) => line.startsWith('params.client: '))).toBe(true);
    expect(errors.some((line) => line.startsWith('params.thing_id: '))).toBe(true);
    expect(errors.some((line) => line.startsWith('query.limit: '))).toBe(true);
    expect(errors).toContain('query.colour: This field is not allowed.');
    expect(body.message).toBe(errors.join('\n'));
  });

  it('answers 400 body: Invalid JSON', async () => {
    const { call } = setup();
    const { status, body } = await call(eventFor(createThing, { pathParameters: acme, body: '{"name":', headers: bearer(tenantToken) }));
    expect(status).toBe(400);
    expect(body.errors).toEqual(['body: Invalid JSON']);
  });

  it('answers 400 when a body is sent to an endpoint that takes none', async () => {
    const { call } = setup();
    const { status, body } = await call(eventFor(listThings, { pathParameters: acme, body: '{}', headers: bearer(tenantToken) }));
    expect(status).toBe(400);
    expect(body.errors).toEqual(['body: This endpoint takes no body']);
  });

  it('answers 400 when a required body is missing', async () => {
    const { call } = setup();
    const { status, body } = await call(eventFor(createThing, { pathParameters: acme, headers: bearer(tenantToken) }));
    expect(status).toBe(400);
    expect((body.errors as string[])[0]).toMatch(/^body: /);
  });

  it('answers 413 for a body over 1 MiB, plain or base64', async () => {
    const { call } = setup();
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    expect((await call(eventFor(createThing, { pathParameters: acme, body: big }))).status).toBe(413);
    const base64 = Buffer.from(big).toString('base64');
    expect((await call(eventFor(createThing, { pathParameters: acme, body: base64, isBase64Encoded: true }))).status).toBe(413);
    // Multi-byte characters count as bytes, not characters.
    const wide = JSON.stringify({ name: '€'.repeat(400_000) });
    expect((await call(eventFor(createThing, { pathParameters: acme, body: wide }))).status).toBe(413);
  });

  it('decodes base64 bodies', async () => {
    const { call } = setup({ [createThing.id]: implement(createThing, async ({ body }) => ({ name: body.name })) });
    const encoded = Buffer.from('{"name":"żółw"}').toString('base64');
    const { status, body } = await call(
      eventFor(createThing, { pathParameters: acme, body: encoded, isBase64Encoded: true, headers: bearer(tenantToken) }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ name: 'żółw' });
  });
});

describe('createHttpHandler: authentication and tenancy', () => {
  it('answers 401 without a token, with a malformed header and with a forged token', async () => {
    const { call } = setup();
    const event = (headers: Record<string, string>) => eventFor(listThings, { pathParameters: acme, headers });
    const missing = await call(event({}));
    expect(missing.status).toBe(401);
    expect(missing.body.message).toBe('Authorization required');
    expect(missing.result.headers?.['www-authenticate']).toBe('Bearer');
    expect((await call(event({ authorization: 'Basic dXNlcjpwYXNz' }))).status).toBe(401);
    expect((await call(event({ authorization: `Bearer ${tenantToken}x` }))).status).toBe(401);
    const [header, payload] = tenantToken.split('.');
    expect((await call(event({ authorization: `Bearer ${header}.${payload}.` }))).status).toBe(401);
  });

  it('answers 403 when the token belongs to another tenant', async () => {
    const { call } = setup();
    const { status, body } = await call(eventFor(listThings, { pathParameters: { client: 'globex' }, headers: bearer(tenantToken) }));
    expect(status).toBe(403);
    expect(body.message).toBe('Token is not valid for this client');
  });

  it('keeps the internal console for staff', async () => {
    const { call } = setup();
    const event = (token: string) => eventFor(internalClients, { pathParameters: acme, headers: bearer(token) });
    expect((await call(event(tenantToken))).status).toBe(403);
    expect((await call(event(staffToken))).status).toBe(501);
    // Staff roles are enforced: a staff token naming no staff role may use no internal endpoint.
    expect((await call(event(rolelessStaffToken))).status).toBe(403);
  });

  it('refuses support mode for tenant tokens and for requests that do not exist', async () => {
    const { call } = setup();
    const support = (token: string) =>
      eventFor(listThings, { pathParameters: acme, headers: { authorization: `internal-01J0000000000000000000000 ${token}` } });
    const tenant = await call(support(tenantToken));
    expect(tenant).toMatchObject({ status: 403, body: { message: 'Support access is for provider staff only' } });
    const missing = await call(support(staffToken));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toMatch(/^Support access denied: request 01J0000000000000000000000 does not exist/);
  });

  it('refuses every device token for now', async () => {
    const { call } = setup();
    const { status } = await call(eventFor(deviceUpload, { body: '{"logs":["a"]}', headers: bearer(tenantToken) }));
    expect(status).toBe(401);
  });

  it('serves public endpoints without a token', async () => {
    const { call } = setup({ [metadata.id]: implement(metadata, async () => ({ name: 'Acme' })) });
    const { status, body } = await call(eventFor(metadata, { pathParameters: acme }));
    expect(status).toBe(200);
    expect(body).toEqual({ name: 'Acme' });
  });
});

describe('createHttpHandler: errors and responses', () => {
  it('answers 500 without detail when an implementation throws, and logs the detail', async () => {
    const { call, logLines } = setup({
      [listThings.id]: async () => {
        throw new Error('database password is hunter2');
      },
    });
    const { status, body, result } = await call(eventFor(listThings, { pathParameters: acme, headers: bearer(tenantToken) }));
    expect(status).toBe(500);
    expect(body).toEqual({ error_code: 500, message: 'Internal Server Error' });
    expect(result.body).not.toContain('hunter2');
    expect(logLines.join('\n')).toContain('hunter2');
  });

  it('answers 500 when a response breaks its contract and validation is on', async () => {
    const routes = { [listThings.id]: async () => ({ count: 'many' }) };
    const strict = setup(routes);
    const { status, body } = await strict.call(eventFor(listThings, { pathParameters: acme, headers: bearer(tenantToken) }));
    expect(status).toBe(500);
    expect(body.message).toBe('Internal Server Error');
    expect(strict.logLines.join('\n')).toContain('breaks its contract');
    const lax = setup(routes, { validateResponses: false });
    expect((await lax.call(eventFor(listThings, { pathParameters: acme, headers: bearer(tenantToken) }))).status).toBe(200);
  });

  it('logs one JSON line per request with id, route, status, duration and principal, and no token', async () => {
    const { call, logLines } = setup();
    await call(eventFor(listThings, { pathParameters: acme, headers: bearer(tenantToken) }));
    const requestLines = logLines.filter((entry) => (JSON.parse(entry) as { message: string }).message === 'request');
    expect(requestLines).toHaveLength(1);
    const line = JSON.parse(requestLines[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({
      message: 'request',
      request_id: 'req-1',
      route: 'GET /api/v1/{client}/things',
      endpoint: 'client.things.list',
      status: 501,
      principal: { kind: 'user', client: 'acme', subject: 'user-1' },
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(logLines.join('\n')).not.toContain(tenantToken.split('.')[2] as string);
    expect(logLines.join('\n')).not.toContain('ada@example.com');
  });
});
