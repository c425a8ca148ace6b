import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { pathParamNames, type Endpoint } from '#shared/contract/endpoint.ts';
import { ACTION_CATALOGUE, ENDPOINTS } from '#shared/contract/registry.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer } from './support/stack.ts';
import { actionInWords } from '#shared/contract/action-wording.ts';

/**
 * Staff roles on the internal console, read from the registry so a new internal endpoint is covered: the read-only
 * staff account (support@verity.test, staff role `support`) reads every internal endpoint and is refused every
 * internal write with a 403 naming the action; full staff (staff@verity.test) passes the same authorization. Writes
 * carry valid bodies, since input is validated before authorization and a 400 would prove nothing.
 */
const BODIES: Record<string, unknown> = {
  'internal.clients.licenses.put': { calls: 10, interviews: 10, gps: 10, photos: 10, mms: 10, rcs: 10, sms: 10, videos: 10 },
  'internal.clients.supportaccess.create': { role: 'reviewer', request_description: 'staff roles check', requested_expiry: new Date(Date.now() + 86_400_000).toISOString() },
  'internal.alerts.notify': { scope: 'ops', severity: 'Medium', message: 'staff roles check', clients: ['nobody-here'] },
  'internal.clients.alerts.close': { alert_references: [ulid()], action: 'Clear' },
  'internal.clients.alerts.dismiss': { alert_references: [ulid()] },
};
const PARAMS: Record<string, string> = { client: 'demo', approval_status: 'pending' };

const internalEndpoints = (ENDPOINTS as readonly Endpoint[]).filter((endpoint) => endpoint.surface === 'internal' && endpoint.auth !== 'public');
const reads = internalEndpoints.filter((endpoint) => endpoint.method === 'GET');
const writes = internalEndpoints.filter((endpoint) => endpoint.method !== 'GET');

let support: string;
let staff: string;

async function call(endpoint: Endpoint, token: string) {
  const path = endpoint.fullPath.replace(/\{([a-z_]+)\}/g, (_, name: string) => PARAMS[name] ?? ulid());
  const body = BODIES[endpoint.id];
  const response = await api(path, {
    method: endpoint.method,
    headers: bearer(token, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text === '' ? {} : JSON.parse(text)) as { message?: string } };
}

beforeAll(async () => {
  [support, staff] = (await Promise.all(['support@verity.test', 'staff@verity.test'].map((email) => signIn(email)))).map((tokens) => tokens.id_token) as [string, string];
});

describe('staff roles on the internal console', () => {
  it('covers reads and writes of the registry (every write has a valid body here)', () => {
    expect(reads.length).toBeGreaterThan(5);
    expect(writes.filter((endpoint) => endpoint.body !== undefined && BODIES[endpoint.id] === undefined).map((endpoint) => endpoint.id)).toEqual([]);
    expect(internalEndpoints.every((endpoint) => pathParamNames(endpoint.fullPath).every((name) => name in PARAMS || name.endsWith('_reference')))).toBe(true);
  });

  it.each(reads.map((endpoint) => [endpoint.id, endpoint] as const))('support reads %s', async (_id, endpoint) => {
    const answer = await call(endpoint, support);
    // A read may find nothing for a made-up reference (404), but authorization never refuses it.
    expect([200, 404], answer.text).toContain(answer.status);
  });

  it.each(writes.map((endpoint) => [endpoint.id, endpoint] as const))('support is refused %s', async (_id, endpoint) => {
    const answer = await call(endpoint, support);
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body.message).toBe(`Access denied: your roles do not allow ${actionInWords(endpoint.action)}`);
  });

  it('lets full staff past the same authorization', async () => {
    for (const endpoint of internalEndpoints.filter((candidate) => candidate.id !== 'internal.clients.licenses.put')) {
      const answer = await call(endpoint, staff);
      expect(answer.status, `${endpoint.id}: ${answer.text}`).not.toBe(403);
    }
  });

  it("shows the support account's profile only the internal reads", async () => {
    const response = await api('/api/v1/admin/profile', { headers: bearer(support) });
    expect(response.status).toBe(200);
    const profile = (await response.json()) as { actions: string[]; roles: string[] };
    expect(profile.roles).toEqual(['support']);
    const expected = ACTION_CATALOGUE.map((entry) => (typeof entry === 'string' ? entry : entry.action)).filter(
      (action) => action.startsWith('internal:List') || action.startsWith('internal:Read'),
    );
    expect(profile.actions).toEqual(expected);
  });
});
