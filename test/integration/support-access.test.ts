import { beforeAll, describe, expect, it } from 'vitest';
import { createFixedClock } from '#core/adapters/local/clocks.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { runJob } from '../../lambdas/jobs/jobs.ts';
import { api, bearer, stack } from './support/stack.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Support access end to end on the local stack: staff ask (internal console), the tenant decides (admin surface),
 * the expiry job ends what is due. The state table is lambdas/support-access/state-machine.ts.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

let staff: string;
let demoAdmin: string;
let acmeAdmin: string;

beforeAll(async () => {
  const token = async (email: string) => (await signIn(email)).id_token;
  [staff, demoAdmin, acmeAdmin] = await Promise.all([token('staff@verity.test'), token('admin@demo.test'), token('admin@acme.test')]);
});

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>>; count?: number };
}

async function call(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const response = await api(path, {
    method,
    headers: bearer(token, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Staff ask `client` for `role`; answers the new request's reference. */
async function request(client = 'demo', role = 'reviewer', expiresIn = 2 * DAY): Promise<string> {
  const created = await call('POST', `/internal/v1/clients/${client}/supportaccess`, staff, {
    role,
    request_description: 'Investigating a missing recording (ticket 42)',
    requested_expiry: inFuture(expiresIn),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.request_reference as string;
}

const decide = (reference: string, decision: Record<string, unknown>, token = demoAdmin, client = 'demo') =>
  call('PUT', `/api/v1/${client}/supportaccess/${reference}`, token, decision);

const references = (answer: Answer) => (answer.body.data ?? []).map((item) => item.request_reference);

describe('staff request, tenant decides', () => {
  it('creates a pending request the tenant and staff both see', async () => {
    const requestedExpiry = inFuture(2 * DAY);
    const created = await call('POST', '/internal/v1/clients/demo/supportaccess', staff, {
      role: 'reviewer',
      request_description: 'Checking a device that stopped uploading',
      requested_expiry: requestedExpiry,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      client: 'demo',
      role: 'reviewer',
      approval_state: 'pending',
      requested_by: 'staff:verity-staff',
      requested_by_actor: { reference: 'staff:verity-staff', kind: 'staff', name: 'Sam Staff', email: 'staff@verity.test' },
      requested_expiry: requestedExpiry,
    });
    const reference = created.body.request_reference as string;
    expect(reference).toMatch(ULID);

    expect((await call('GET', `/api/v1/demo/supportaccess/${reference}`, demoAdmin)).body.approval_state).toBe('pending');
    // ULIDs are case-insensitive.
    expect((await call('GET', `/api/v1/demo/supportaccess/${reference.toLowerCase()}`, demoAdmin)).status).toBe(200);
    expect(references(await call('GET', '/api/v1/demo/supportaccess', demoAdmin))).toContain(reference);
    expect(references(await call('GET', '/internal/v1/clients/demo/supportaccess?approval_state=pending', staff))).toContain(reference);
    expect(references(await call('GET', '/internal/v1/supportaccess/pending', staff))).toContain(reference);
  });

  it('approves: listed under approved (tenant, staff, across tenants), no longer under pending', async () => {
    const reference = await request();
    const approvalExpiry = inFuture(DAY);
    const approved = await decide(reference, { approval_state: 'approved', approval_expiry: approvalExpiry });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ approval_state: 'approved', approved_by: 'demo-admin', approved_by_actor: { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' }, approval_expiry: approvalExpiry });

    expect(references(await call('GET', '/api/v1/demo/supportaccess?approval_state=approved', demoAdmin))).toContain(reference);
    expect(references(await call('GET', '/api/v1/demo/supportaccess?approval_state=pending', demoAdmin))).not.toContain(reference);
    expect(references(await call('GET', '/internal/v1/supportaccess/approved', staff))).toContain(reference);
    expect(references(await call('GET', '/internal/v1/supportaccess/pending', staff))).not.toContain(reference);
    expect((await call('GET', `/internal/v1/clients/demo/supportaccess/${reference}`, staff)).body.approval_state).toBe('approved');
  });

  it('approves until the requested expiry by default, and never beyond it', async () => {
    const reference = await request();
    const asked = (await call('GET', `/api/v1/demo/supportaccess/${reference}`, demoAdmin)).body.requested_expiry;
    const tooLong = await decide(reference, { approval_state: 'approved', approval_expiry: inFuture(3 * DAY) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/^body\.approval_expiry: Must not be after the requested expiry/);
    const past = await decide(reference, { approval_state: 'approved', approval_expiry: new Date(Date.now() - MINUTE).toISOString() });
    expect(past.body.message).toBe('body.approval_expiry: Must be in the future');
    const approved = await decide(reference, { approval_state: 'approved' });
    expect(approved.body).toMatchObject({ approval_state: 'approved', approval_expiry: asked });
  });

  it('a second approval of the same request is a 409 naming the current state', async () => {
    const reference = await request();
    expect((await decide(reference, { approval_state: 'approved' })).status).toBe(200);
    const again = await decide(reference, { approval_state: 'approved' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('approval_state: The request is approved; it cannot be approved');
  });

  it('of two racing decisions exactly one wins', async () => {
    const reference = await request();
    const answers = await Promise.all([
      decide(reference, { approval_state: 'approved' }),
      decide(reference, { approval_state: 'rejected', rejection_reason: 'Not now' }),
      decide(reference, { approval_state: 'approved' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((answer) => answer.status === 200) as Answer;
    const stored = await call('GET', `/api/v1/demo/supportaccess/${reference}`, demoAdmin);
    expect(stored.body.approval_state).toBe(winner.body.approval_state);
  });

  it('a rejection needs a reason, and keeps it', async () => {
    const reference = await request();
    const bare = await decide(reference, { approval_state: 'rejected' });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('body.rejection_reason: The rejection_reason field is required.');
    const withExpiry = await decide(reference, { approval_state: 'rejected', rejection_reason: 'No', approval_expiry: inFuture(DAY) });
    expect(withExpiry.body.message).toBe('body.approval_expiry: Only an approval has an expiry');
    const rejected = await decide(reference, { approval_state: 'rejected', rejection_reason: 'Use the ticket queue' });
    expect(rejected.body).toMatchObject({ approval_state: 'rejected', rejection_reason: 'Use the ticket queue' });
    expect((await decide(reference, { approval_state: 'approved' })).status).toBe(409);
  });

  it('the tenant revokes an approved request; a pending one cannot be revoked', async () => {
    const reference = await request();
    const early = await decide(reference, { approval_state: 'revoked' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('approval_state: The request is pending; it cannot be revoked');
    await decide(reference, { approval_state: 'approved' });
    expect((await decide(reference, { approval_state: 'revoked', rejection_reason: 'Done' })).body).toMatchObject({
      approval_state: 'revoked',
      rejection_reason: 'Done',
    });
    expect(references(await call('GET', '/internal/v1/supportaccess/revoked', staff))).toContain(reference);
  });

  it('staff DELETE cancels a pending request and revokes an approved one; then it is final', async () => {
    const pending = await request();
    expect((await call('DELETE', `/internal/v1/clients/demo/supportaccess/${pending}`, staff)).body.approval_state).toBe('canceled');
    const again = await call('DELETE', `/internal/v1/clients/demo/supportaccess/${pending}`, staff);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('approval_state: The request is canceled; it cannot be canceled or revoked');
    expect((await decide(pending, { approval_state: 'approved' })).status).toBe(409);

    const approved = await request();
    await decide(approved, { approval_state: 'approved' });
    expect((await call('DELETE', `/internal/v1/clients/demo/supportaccess/${approved}`, staff)).body.approval_state).toBe('revoked');
  });
});

describe('support mode', () => {
  it('staff acting in the tenant through an approved request cannot decide support access', async () => {
    const granted = await request('demo', 'admin');
    await decide(granted, { approval_state: 'approved' });
    const other = await request('demo', 'admin');
    const asStaff = await api(`/api/v1/demo/supportaccess/${other}`, {
      method: 'PUT',
      headers: { authorization: `internal-${granted} ${staff}`, 'content-type': 'application/json' },
      body: JSON.stringify({ approval_state: 'approved' }),
    });
    expect(asStaff.status).toBe(403);
    expect(((await asStaff.json()) as { message: string }).message).toBe('Support access cannot be decided in support mode');
    expect((await call('GET', `/api/v1/demo/supportaccess/${other}`, demoAdmin)).body.approval_state).toBe('pending');
  });
});

describe('request validation', () => {
  const post = (client: string, body: unknown) => call('POST', `/internal/v1/clients/${client}/supportaccess`, staff, body);

  it('refuses an expiry in the past or more than 30 days ahead, and a role the tenant does not have', async () => {
    const base = { role: 'reviewer', request_description: 'x' };
    const past = await post('demo', { ...base, requested_expiry: new Date(Date.now() - MINUTE).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe('body.requested_expiry: Must be in the future');
    const far = await post('demo', { ...base, requested_expiry: inFuture(31 * DAY) });
    expect(far.body.message).toBe('body.requested_expiry: Must be at most 30 days ahead');
    const role = await post('demo', { ...base, role: 'no-such-role', requested_expiry: inFuture(DAY) });
    expect(role.status).toBe(400);
    expect(role.body.message).toBe('body.role: No role no-such-role in client demo');
  });

  it('refuses hostile bodies with 400 lines and an unknown client with 404', async () => {
    const hostile = await post('demo', { role: 'reviewer', request_description: '', requested_expiry: 'tomorrow', approval_state: 'approved' });
    expect(hostile.status).toBe(400);
    expect(hostile.body.message).toContain('body.requested_expiry: ');
    expect(hostile.body.message).toContain('body.approval_state: ');
    expect((await post('globex', { role: 'reviewer', request_description: 'x', requested_expiry: inFuture(DAY) })).status).toBe(404);
    expect((await call('GET', '/api/v1/demo/supportaccess/not-a-ulid', demoAdmin)).status).toBe(400);
    expect((await call('GET', '/api/v1/demo/supportaccess/01ARZ3NDEKTSV4RRFFQ69G5FAV', demoAdmin)).status).toBe(404);
    expect((await call('GET', '/internal/v1/supportaccess/granted', staff)).status).toBe(400);
    expect((await call('GET', '/api/v1/demo/supportaccess?last_key=forged.cursor', demoAdmin)).status).toBe(400);
  });
});

describe('tenancy', () => {
  it('a tenant cannot see or decide another tenant\'s requests', async () => {
    const reference = await request('demo');
    expect((await call('GET', '/api/v1/demo/supportaccess', acmeAdmin)).status).toBe(403);
    expect((await call('GET', `/api/v1/demo/supportaccess/${reference}`, acmeAdmin)).status).toBe(403);
    // In its own tenant the reference simply does not exist.
    expect((await call('GET', `/api/v1/acme/supportaccess/${reference}`, acmeAdmin)).status).toBe(404);
    expect((await decide(reference, { approval_state: 'approved' }, acmeAdmin, 'acme')).status).toBe(404);
    expect(references(await call('GET', '/api/v1/acme/supportaccess', acmeAdmin))).not.toContain(reference);
    expect(references(await call('GET', '/api/v1/acme/supportaccess?approval_state=pending', acmeAdmin))).not.toContain(reference);
    expect((await call('GET', `/api/v1/demo/supportaccess/${reference}`, demoAdmin)).body.approval_state).toBe('pending');
  });

  it('a tenant user cannot call the internal endpoints (403)', async () => {
    const reference = await request('demo');
    const attempts = [
      call('GET', '/internal/v1/clients/demo/supportaccess', demoAdmin),
      call('POST', '/internal/v1/clients/demo/supportaccess', demoAdmin, {
        role: 'admin',
        request_description: 'x',
        requested_expiry: inFuture(DAY),
      }),
      call('GET', `/internal/v1/clients/demo/supportaccess/${reference}`, demoAdmin),
      call('DELETE', `/internal/v1/clients/demo/supportaccess/${reference}`, demoAdmin),
      call('GET', '/internal/v1/supportaccess/pending', demoAdmin),
    ];
    for (const answer of await Promise.all(attempts)) expect(answer.status).toBe(403);
  });

  it('pages with a cursor bound to the list', async () => {
    await Promise.all([request('acme', 'reviewer'), request('acme', 'reviewer'), request('acme', 'reviewer')]);
    const first = await call('GET', '/api/v1/acme/supportaccess?limit=2', acmeAdmin);
    expect(first.body.count).toBe(2);
    const cursor = first.body.last_key as string;
    expect(cursor).toBeTypeOf('string');
    const second = await call('GET', `/api/v1/acme/supportaccess?limit=2&last_key=${encodeURIComponent(cursor)}`, acmeAdmin);
    expect(second.status).toBe(200);
    expect(references(second).some((reference) => references(first).includes(reference))).toBe(false);
    // The same cursor on another list (filtered by state) is refused.
    const other = await call('GET', `/api/v1/acme/supportaccess?approval_state=pending&last_key=${encodeURIComponent(cursor)}`, acmeAdmin);
    expect(other.status).toBe(400);
    const total = await call('GET', '/api/v1/acme/supportaccess?result_type=total', acmeAdmin);
    expect(total.body.count).toBeGreaterThanOrEqual(3);
  });
});

describe('expiry job', () => {
  it('expires an approved request once its approval_expiry has passed, and a pending one past its requested_expiry', async () => {
    // Expiries a few minutes out, and a job clock just past them: other test files' requests (days out) are untouched.
    const approved = await request('demo', 'reviewer', 3 * MINUTE);
    const approvalExpiry = inFuture(2 * MINUTE);
    expect((await decide(approved, { approval_state: 'approved', approval_expiry: approvalExpiry })).status).toBe(200);
    const pending = await request('demo', 'reviewer', 3 * MINUTE);
    const later = await request('demo', 'reviewer', 2 * DAY);
    await decide(later, { approval_state: 'approved' });

    const clock = createFixedClock(new Date(Date.now() + MINUTE));
    const dependencies = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }), { clock });
    await runJob(dependencies, 'support-access-expiry');
    expect((await call('GET', `/api/v1/demo/supportaccess/${approved}`, demoAdmin)).body.approval_state).toBe('approved');
    expect((await call('GET', `/api/v1/demo/supportaccess/${pending}`, demoAdmin)).body.approval_state).toBe('pending');

    clock.set(new Date(Date.now() + 4 * MINUTE));
    const report = await runJob(dependencies, 'support-access-expiry');
    expect(report.expired).toBeGreaterThanOrEqual(2);
    expect((await call('GET', `/api/v1/demo/supportaccess/${approved}`, demoAdmin)).body.approval_state).toBe('expired');
    expect((await call('GET', `/api/v1/demo/supportaccess/${pending}`, demoAdmin)).body.approval_state).toBe('expired');
    expect((await call('GET', `/api/v1/demo/supportaccess/${later}`, demoAdmin)).body.approval_state).toBe('approved');
    expect(references(await call('GET', '/internal/v1/supportaccess/expired', staff))).toEqual(expect.arrayContaining([approved, pending]));

    // Expired is final: nothing brings it back.
    expect((await decide(approved, { approval_state: 'approved' })).status).toBe(409);
    expect((await call('DELETE', `/internal/v1/clients/demo/supportaccess/${pending}`, staff)).status).toBe(409);
  });
});
