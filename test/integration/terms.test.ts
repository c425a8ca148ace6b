import { beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_TERMS } from '#shared/constants/terms.ts';
import { api } from './support/stack.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Terms of use against the local stack (`GET`/`PUT /api/v1/{client}/terms`): what the portal's terms guard reads and
 * writes. The seed accepts nothing, so every demo account starts with `accepted: false`. This file is the only one
 * that accepts terms, and only as demo's reviewer and as staff in support mode (tests accept again where they need
 * it, which is idempotent): demo's and acme's admins never accept, so the order of tests does not matter.
 */

const MINUTE = 60_000;
const LINE = /^[^\s:]+: \S.*$/;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>> };
}

async function call(method: string, path: string, authorization: string | undefined, body?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await api(path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

const token = async (email: string) => (await signIn(email)).id_token;
const auth = (idToken: string) => `Bearer ${idToken}`;
const accept = (client: string, authorization: string, validFrom: unknown = CURRENT_TERMS.valid_from) =>
  call('PUT', `/api/v1/${client}/terms`, authorization, JSON.stringify({ valid_from: validFrom }));

let demoAdmin: string;
let demoReviewer: string;
let acmeAdmin: string;
let staff: string;

beforeAll(async () => {
  [demoAdmin, demoReviewer, acmeAdmin, staff] = await Promise.all([
    token('admin@demo.test'),
    token('reviewer@demo.test'),
    token('admin@acme.test'),
    token('staff@verity.test'),
  ]);
});

describe('terms of use', () => {
  it('refuse callers without a valid token with 401', async () => {
    for (const method of ['GET', 'PUT']) {
      const body = method === 'PUT' ? JSON.stringify({ valid_from: CURRENT_TERMS.valid_from }) : undefined;
      expect((await call(method, '/api/v1/demo/terms', undefined, body)).status).toBe(401);
      expect((await call(method, '/api/v1/demo/terms', 'Bearer not-a-token', body)).status).toBe(401);
    }
  });

  it('show the current terms, not accepted, to a user who has not accepted them (the seed accepts none)', async () => {
    const answer = await call('GET', '/api/v1/acme/terms', auth(acmeAdmin));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ valid_from: CURRENT_TERMS.valid_from, termsAndConditions: CURRENT_TERMS.termsAndConditions, accepted: false });
  });

  it('refuse stale terms with 409, then accept the current ones once, audited', async () => {
    const before = await call('GET', '/api/v1/demo/terms', auth(demoReviewer));
    const stale = await accept('demo', auth(demoReviewer), '2020-01-01T00:00:00.000Z');
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('valid_from: These terms are no longer current; reload and accept the current terms');
    expect((await call('GET', '/api/v1/demo/terms', auth(demoReviewer))).body).toEqual(before.body);

    const accepted = await accept('demo', auth(demoReviewer));
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ valid_from: CURRENT_TERMS.valid_from, accepted: true });
    const acceptedAt = accepted.body.accepted_at as string;
    expect(Math.abs(Date.parse(acceptedAt) - Date.now())).toBeLessThan(5 * MINUTE);
    // The reviewer role may change nothing, yet accepting one's own terms is always allowed.
    expect((await call('GET', '/api/v1/demo/terms', auth(demoReviewer))).body).toMatchObject({ accepted: true, accepted_at: acceptedAt });
    // Idempotent: the first acceptance time stands.
    expect((await accept('demo', auth(demoReviewer))).body).toMatchObject({ accepted: true, accepted_at: acceptedAt });

    // The tenant's audit trail holds exactly one acceptance record, naming the terms (beside the calls themselves).
    const activities = await call('GET', `/api/v1/demo/activities?action=profile:AcceptTerms&user_id=demo-reviewer`, auth(demoAdmin));
    expect(activities.status).toBe(200);
    const acceptances = (activities.body.data ?? []).filter((record) => (record.parameters as Record<string, unknown> | undefined)?.valid_from !== undefined);
    expect(acceptances).toHaveLength(1);
    expect(acceptances[0]).toMatchObject({ user_id: 'demo-reviewer', is_allowed: true, parameters: { valid_from: CURRENT_TERMS.valid_from } });
  });

  it("keep tenants and users apart: acme's admin and demo's admin do not see demo's reviewer's acceptance", async () => {
    expect((await accept('demo', auth(demoReviewer))).body.accepted).toBe(true);
    expect((await call('GET', '/api/v1/acme/terms', auth(acmeAdmin))).body.accepted).toBe(false);
    expect((await call('GET', '/api/v1/demo/terms', auth(demoAdmin))).body.accepted).toBe(false);
    // Nor can acme read or accept on demo's path.
    expect((await call('GET', '/api/v1/demo/terms', auth(acmeAdmin))).status).toBe(403);
    expect((await accept('demo', auth(acmeAdmin))).status).toBe(403);
    expect((await call('GET', '/api/v1/acme/terms', auth(acmeAdmin))).body.accepted).toBe(false);
  });

  it('keep support-mode staff apart from the tenant user who approved them', async () => {
    const created = await call(
      'POST',
      '/internal/v1/clients/demo/supportaccess',
      auth(staff),
      JSON.stringify({ role: 'reviewer', request_description: 'Terms test', requested_expiry: new Date(Date.now() + 60 * MINUTE).toISOString() }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reference = created.body.request_reference as string;
    expect((await call('PUT', `/api/v1/demo/supportaccess/${reference}`, auth(demoAdmin), JSON.stringify({ approval_state: 'approved' }))).status).toBe(200);
    const asStaff = `internal-${reference} ${staff}`;
    expect((await accept('demo', auth(demoReviewer))).body.accepted).toBe(true);
    expect((await call('GET', '/api/v1/demo/terms', asStaff)).body.accepted).toBe(false);
    expect((await accept('demo', asStaff)).body.accepted).toBe(true);
    expect((await call('GET', '/api/v1/demo/terms', asStaff)).body.accepted).toBe(true);
    // Staff's acceptance in demo is nobody else's.
    expect((await call('GET', '/api/v1/demo/terms', auth(demoAdmin))).body.accepted).toBe(false);
    expect((await call('GET', '/api/v1/acme/terms', auth(acmeAdmin))).body.accepted).toBe(false);
  });

  it('refuse hostile bodies with 400 and one `path: message` line per problem', async () => {
    const hostile: Array<[string, string]> = [
      ['extra key', JSON.stringify({ valid_from: CURRENT_TERMS.valid_from, accepted: true })],
      ['wrong type', JSON.stringify({ valid_from: 20261101 })],
      ['nested object', JSON.stringify({ valid_from: { $ne: null } })],
      ['huge string', JSON.stringify({ valid_from: 'x'.repeat(100_000) })],
      ['not a time', JSON.stringify({ valid_from: '2026-02-30T00:00:00Z' })],
      ['missing', JSON.stringify({})],
      ['array', JSON.stringify([CURRENT_TERMS.valid_from])],
      ['null', 'null'],
      ['invalid JSON', '{"valid_from": '],
      // `__proto__` is dropped by the JSON reader; `constructor` is then an unknown field.
      ['prototype pollution', `{"__proto__":{"accepted":true},"constructor":{"prototype":{"x":1}},"valid_from":"${CURRENT_TERMS.valid_from}"}`],
    ];
    for (const [name, body] of hostile) {
      const answer = await call('PUT', '/api/v1/acme/terms', auth(acmeAdmin), body);
      expect(answer.status, name).toBe(400);
      const lines = String(answer.body.message).split('\n');
      expect(lines.length, name).toBeGreaterThan(0);
      for (const line of lines) expect(line, name).toMatch(LINE);
      expect(String(answer.body.message).length, name).toBeLessThan(2000);
    }
    expect((await call('PUT', '/api/v1/acme/terms', auth(acmeAdmin), JSON.stringify({ valid_from: CURRENT_TERMS.valid_from, accepted: true }))).body.message).toContain(
      'body.accepted: This field is not allowed.',
    );
    // Nothing hostile was accepted.
    expect((await call('GET', '/api/v1/acme/terms', auth(acmeAdmin))).body.accepted).toBe(false);
    // GET takes no query and no body.
    expect((await call('GET', '/api/v1/acme/terms?accepted=true', auth(acmeAdmin))).status).toBe(400);
  });
});
