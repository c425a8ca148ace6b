import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '#shared/contract/endpoint.ts';
import { createFixedClock } from '../../adapters/local/clocks.ts';
import { DeviceTokenRefusedError } from '../../auth/device-token.ts';
import { createOidcTokenVerifier } from '../../auth/jwt-verifier.ts';
import type { Dependencies } from '../../dependencies.ts';
import { ForbiddenError, UnauthorizedError } from '../../errors.ts';
import { keys } from '../../store/keys.ts';
import { eventFor, testDependencies } from '../../testing/http-events.ts';
import { createMemoryTable, type MemoryTable } from '../../testing/memory-table.ts';
import { pipelineRequest, runHook } from '../../testing/pipeline-requests.ts';
import { createTestIssuer, type TestIssuer } from '../../testing/test-tokens.ts';
import { authenticateCaller } from './authenticate.ts';
import { apiRecorders } from '../../../api-recorders.ts';

const base = { group: 'devices', summary: 's', response: z.object({}) } as const;
const listThings = defineEndpoint({ ...base, id: 'client.things.list', surface: 'client', method: 'GET', path: '/things', auth: 'client-app', action: 'things:List' });
const metadata = defineEndpoint({ ...base, id: 'admin.account.metadata', surface: 'admin', method: 'GET', path: '/account/metadata', auth: 'public', action: 'account:Metadata' });
const listGroups = defineEndpoint({ ...base, id: 'admin.groups.list', surface: 'admin', method: 'GET', path: '/groups', auth: 'user', action: 'groups:List' });
const upload = defineEndpoint({ ...base, id: 'device.logs.upload', surface: 'device', method: 'POST', path: '/logs', auth: 'device', action: 'logs:Upload' });

let portal: TestIssuer;
let stranger: TestIssuer;
beforeAll(async () => {
  portal = await createTestIssuer();
  stranger = await createTestIssuer('https://stranger.example.com', 'acme-reporting');
});

function setup(table: MemoryTable = createMemoryTable()) {
  const tokens = createOidcTokenVerifier({ issuer: portal.issuer, audiences: [portal.audience], keySource: portal.keySource });
  const dependencies: Dependencies = { ...testDependencies({ tokens, table, clock: createFixedClock('2025-06-01T12:00:00.000Z') }) };
  const authenticateOn = async (endpoint: Endpoint, client: string | undefined, headers: Record<string, string> = {}) => {
    const event = eventFor(endpoint, { ...(client === undefined ? {} : { pathParameters: { client } }), headers });
    const request = pipelineRequest(event, { state: { dependencies, endpoint, input: { params: {}, query: {}, body: undefined, client } } });
    const error = await runHook(authenticateCaller(apiRecorders.securityAlerts), 'before', request).catch((thrown: unknown) => thrown);
    return { state: request.internal.pipeline, error };
  };
  return { dependencies, table, authenticateOn };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('authenticateCaller', () => {
  it('keeps the verified caller and starts the activity clock', async () => {
    const { authenticateOn } = setup();
    const { state, error } = await authenticateOn(listThings, 'acme', bearer(await portal.sign({ 'custom:client': 'acme' })));
    expect(error).toBeUndefined();
    expect(state?.principal).toMatchObject({ kind: 'user', client: 'acme', subject: 'user-1' });
    expect(state?.startedAtTime?.toISOString()).toBe('2025-06-01T12:00:00.000Z');
  });

  it('answers 401 without a token, still starting the clock (the refusal is recorded)', async () => {
    const { authenticateOn } = setup();
    const { state, error } = await authenticateOn(listThings, 'acme');
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe('Authorization required');
    expect(state?.principal).toBeUndefined();
    expect(state?.startedAtTime).toBeDefined();
  });

  it('answers 403 for a token of another tenant', async () => {
    const { authenticateOn } = setup();
    const { state, error } = await authenticateOn(listThings, 'globex', bearer(await portal.sign({ 'custom:client': 'acme' })));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as Error).message).toBe('Token is not valid for this client');
    // The caller is known: the refusal is recorded as theirs.
    expect(state?.principal).toMatchObject({ client: 'acme' });
  });

  it("refuses another issuer's token on a portal-only endpoint by its issuer, whatever its signature", async () => {
    const { authenticateOn } = setup();
    const { error } = await authenticateOn(listGroups, 'acme', bearer(await stranger.sign({ sub: 'bot' })));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe('Token issuer invalid: this endpoint takes portal sign-in only');
  });

  it('lets anyone call a public endpoint, with no caller and no activity clock', async () => {
    const { authenticateOn } = setup();
    const { state, error } = await authenticateOn(metadata, 'acme');
    expect(error).toBeUndefined();
    expect(state?.principal).toBeUndefined();
    expect(state?.startedAtTime).toBeUndefined();
  });

  it('keeps the device of a refused device token, for its device activity', async () => {
    const { dependencies, authenticateOn } = setup();
    const device = { client: 'acme', deviceReference: 'dev-1' };
    dependencies.deviceTokens = { verify: () => Promise.reject(new DeviceTokenRefusedError('Token expired', device)) };
    const { state, error } = await authenticateOn(upload, undefined, bearer('a.b.c'));
    expect(error).toBeInstanceOf(DeviceTokenRefusedError);
    expect(state?.refusedDevice).toEqual(device);
  });

  it('raises a security alert in the path tenant when a token claims to be one of its client apps and is refused', async () => {
    const table = createMemoryTable([
      {
        ...keys.clientApp.item('acme', 'reporting'),
        app_reference: 'reporting',
        oidc_config: { issuer: 'https://apps.example.com', audience: 'acme-reporting', jwks_uri: 'http://127.0.0.1:9/jwks' },
        roles: ['reviewer'],
        cidr_ranges: [],
      },
    ]);
    const { authenticateOn } = setup(table);
        const { error } = await authenticateOn(listThings, 'acme', bearer(await stranger.sign({ sub: 'bot' })));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe('Token issuer invalid');
    const alerts = [...table.items.values()].filter((item) => item.entity === 'Alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ client: 'acme', alert_scope: 'sec', alert_subject: 'Client app token refused' });
    expect(alerts[0]?.alert_message).toBe('Refused a token of unknown issuer https://stranger.example.com: Token issuer invalid');
  });
});
