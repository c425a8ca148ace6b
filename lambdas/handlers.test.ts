import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_GROUPS, type EndpointGroup } from '#shared/contract/endpoint.ts';
import { ENDPOINTS, findEndpoint } from '#shared/contract/registry.ts';
import { createOidcTokenVerifier } from './core/auth/jwt-verifier.ts';
import { setDependencies } from './core/composition.ts';
import type { ApiHandler } from './core/http/create-http-handler.ts';
import { bodyOf, eventFor, testContext, testDependencies } from './core/testing/http-events.ts';
import { createTestIssuer } from './core/testing/test-tokens.ts';

const handlers = new Map<EndpointGroup, ApiHandler>();
let tenantToken: string;
let staffToken: string;

beforeAll(async () => {
  const issuer = await createTestIssuer();
  tenantToken = await issuer.sign({ 'custom:client': 'acme' });
  staffToken = await issuer.sign({ 'custom:client': 'admin' });
  setDependencies(
    testDependencies({
      tokens: createOidcTokenVerifier({ issuer: issuer.issuer, audiences: [issuer.audience], keySource: issuer.keySource }),
    }),
  );
  for (const group of ENDPOINT_GROUPS) {
    const module = (await import(`./${group}/handler.ts`)) as { handler: ApiHandler };
    handlers.set(group, module.handler);
  }
});
afterAll(() => setDependencies(undefined));

async function call(id: string, request: Parameters<typeof eventFor>[1]) {
  const endpoint = findEndpoint(id);
  if (endpoint === undefined) throw new Error(`no endpoint ${id}`);
  const result = await (handlers.get(endpoint.group) as ApiHandler)(eventFor(endpoint, request), testContext);
  return { status: result.statusCode, body: bodyOf(result) };
}

describe('group handlers', () => {
  it('exist for every endpoint group', () => {
    expect([...handlers.keys()].sort()).toEqual([...ENDPOINT_GROUPS].sort());
  });

  it('route every declared endpoint: none answers 404 or 5xx other than 501', async () => {
    for (const endpoint of ENDPOINTS) {
      const handler = handlers.get(endpoint.group) as ApiHandler;
      const token = endpoint.surface === 'internal' ? staffToken : tenantToken;
      const result = await handler(
        eventFor(endpoint, { pathParameters: { client: 'acme' }, headers: { authorization: `Bearer ${token}` } }),
        testContext,
      );
      expect([400, 401, 501], `${endpoint.id}: ${result.body}`).toContain(result.statusCode);
    }
  });

  it('answer 501 naming the endpoint once input and token pass', async () => {
    const profile = await call('admin.profile.get', { pathParameters: { client: 'acme' }, headers: { authorization: `Bearer ${tenantToken}` } });
    expect(profile).toEqual({
      status: 501,
      body: {
        error_code: 501,
        message: 'Not implemented yet: GET /api/v1/{client}/profile (admin.profile.get)',
        errors: ['Not implemented yet: GET /api/v1/{client}/profile (admin.profile.get)'],
      },
    });
    expect((await call('internal.staff.list', { headers: { authorization: `Bearer ${staffToken}` } })).status).toBe(501);
  });

  it('check the tenant before answering 501', async () => {
    const other = await call('admin.profile.get', { pathParameters: { client: 'globex' }, headers: { authorization: `Bearer ${tenantToken}` } });
    expect(other.status).toBe(403);
    expect((await call('internal.staff.list', { headers: { authorization: `Bearer ${tenantToken}` } })).status).toBe(403);
    expect((await call('admin.profile.get', { pathParameters: { client: 'acme' } })).status).toBe(401);
  });
});
