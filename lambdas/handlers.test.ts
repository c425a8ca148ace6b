import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_GROUPS, type EndpointGroup } from '#shared/contract/endpoint.ts';
import { ENDPOINTS, findEndpoint } from '#shared/contract/registry.ts';
import { createOidcTokenVerifier } from './core/auth/jwt-verifier.ts';
import { setDependencies } from './core/composition.ts';
import type { ApiHandler } from './core/http/create-http-handler.ts';
import { bodyOf, eventFor, testContext, testDependencies } from './core/testing/http-events.ts';
import { createMemoryTable } from './core/testing/memory-table.ts';
import { createTestIssuer } from './core/testing/test-tokens.ts';
import { keys } from './core/store/keys.ts';

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
      // The tenant token's group `Admins` names a role allowing everything, so calls pass authorization.
      table: createMemoryTable([
        {
          ...keys.role.item('acme', 'Admins'),
          role_reference: 'Admins',
          permissions: [{ actions_matching: '*' }],
          payload_types: [],
          alert_permissions: { ops_read: true, ops_write: true, sec_read: true, sec_write: true },
        },
      ]),
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

  it('route every declared endpoint to its group: never a routing 404', async () => {
    for (const endpoint of ENDPOINTS) {
      const handler = handlers.get(endpoint.group) as ApiHandler;
      const token = endpoint.surface === 'internal' ? staffToken : tenantToken;
      const result = await handler(
        eventFor(endpoint, { pathParameters: { client: 'acme' }, headers: { authorization: `Bearer ${token}` } }),
        testContext,
      );
      // Implemented routes may answer anything their contract allows (the in-memory table holds almost nothing);
      // what must never happen is a declared endpoint its own group's handler does not know.
      expect(String(result.body), endpoint.id).not.toContain('No route');
    }
  });

  it('answer the legacy migration switches of a tenant that never set them: nothing disabled', async () => {
    const migration = await call('client.account.migration.get', {
      pathParameters: { client: 'acme' },
      headers: { authorization: `Bearer ${tenantToken}` },
    });
    expect(migration).toEqual({
      status: 200,
      body: { client: 'acme', disable_onboarding: false, disable_offboarding: false, disable_payloads: false },
    });
  });

  it('check the tenant and the token before anything else', async () => {
    const other = await call('admin.profile.get', { pathParameters: { client: 'globex' }, headers: { authorization: `Bearer ${tenantToken}` } });
    expect(other.status).toBe(403);
    expect((await call('internal.clients.list', { headers: { authorization: `Bearer ${tenantToken}` } })).status).toBe(403);
    expect((await call('admin.profile.get', { pathParameters: { client: 'acme' } })).status).toBe(401);
  });
});
