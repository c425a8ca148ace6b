import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Payload comments end to end, signed in as admin@demo.test (may comment), reviewer@demo.test (reads only) and
 * admin@acme.test (another tenant). Payload fixtures are written straight into the table (the pipeline is not
 * what is tested here); references carry this run's id, so reruns never meet.
 */
const run = randomUUID().slice(0, 8);
let deps: Dependencies;
let admin: string;
let reviewer: string;
let acme: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; data?: Array<Record<string, unknown>>; last_key?: string; count?: number };
}

async function call(method: string, path: string, body?: unknown, as = admin, client = 'demo'): Promise<Answer> {
  const response = await api(`/api/v1/${client}${path}`, {
    method,
    headers: bearer(as, body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** A fresh payload item of `type` (references are 26 to 36 characters: a UUID). */
async function payload(type: string, extra: Record<string, unknown> = {}): Promise<string> {
  const reference = randomUUID();
  const time = '2024-05-01T10:00:00.000Z';
  await deps.table.put({
    ...keys.payload.item('demo', { payloadReference: reference, payloadTime: time, deviceReference: `dev-${run}` }),
    payload_reference: reference,
    device_reference: `dev-${run}`,
    payload_type: type,
    payload_state: 'Processed',
    ...extra,
  });
  return reference;
}

let call1: string;
let sms: string;

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  const tokens = await Promise.all(
    ['admin@demo.test', 'reviewer@demo.test', 'admin@acme.test'].map(async (email) => (await signIn(email)).id_token),
  );
  [admin, reviewer, acme] = tokens as [string, string, string];
  call1 = await payload('Call', { payload_full_duration: 60, group: `grp-${run}` });
  sms = await payload('SMS');
});

describe('payload comments', () => {
  it('raises, edits (a new version), closes without removing, and refuses to edit a closed comment', async () => {
    const created = await call('POST', `/payloads/${call1}/comments`, { message: 'Check the opening', comment_duration: { start_time: 5, duration: 10 } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      comment_body: 'Check the opening',
      raised_by: 'demo-admin',
      raised_by_actor: { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' },
      comment_version: 1,
      is_closed: false,
      payload_reference: call1,
      payload_type: 'Call',
      group: `grp-${run}`,
      comment_duration: { start_time: 5, duration: 10 },
    });
    const id = String(created.body.comment_id);

    const edited = await call('PUT', `/payloads/${call1}/comments/${id}`, { message: 'Check the first minute' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ comment_body: 'Check the first minute', comment_version: 2, updated_by: 'demo-admin', updated_by_actor: { reference: 'demo-admin', kind: 'user', name: 'Dana Admin', email: 'admin@demo.test' } });

    const closed = await call('DELETE', `/payloads/${call1}/comments/${id}`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ is_closed: true, closed_by: 'demo-admin', comment_version: 2 });
    expect(typeof closed.body.closed_at).toBe('string');

    const again = await call('PUT', `/payloads/${call1}/comments/${id}`, { message: 'too late' });
    expect(again.status).toBe(409);

    // Closed comments are hidden by default and still there when asked for.
    const open = await call('GET', `/payloads/${call1}/comments`);
    expect(open.body.data?.map((comment) => comment.comment_id)).not.toContain(id);
    const all = await call('GET', `/payloads/${call1}/comments?include_closed=true`);
    expect(all.body.data?.find((comment) => comment.comment_id === id)).toMatchObject({ is_closed: true, comment_body: 'Check the first minute' });
  });

  it('refuses spans outside the recording, spans on untimed payloads, and empty edits', async () => {
    const outside = await call('POST', `/payloads/${call1}/comments`, { message: 'x', comment_duration: { start_time: 55, duration: 10 } });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toMatch(/^body\.comment_duration: Must lie within the recording \(60 seconds\)/);
    const untimed = await call('POST', `/payloads/${sms}/comments`, { message: 'x', comment_duration: { start_time: 0, duration: 1 } });
    expect(untimed.status).toBe(400);
    const negative = await call('POST', `/payloads/${call1}/comments`, { message: 'x', comment_duration: { start_time: -1, duration: 1 } });
    expect(negative.status).toBe(400);
    const empty = await call('POST', `/payloads/${call1}/comments`, { message: '' });
    expect(empty.status).toBe(400);
    const extra = await call('POST', `/payloads/${call1}/comments`, { message: 'x', raised_by: 'someone-else' });
    expect(extra.status).toBe(400);
    const created = await call('POST', `/payloads/${sms}/comments`, { message: 'plain note' });
    expect(created.status).toBe(200);
    const noChange = await call('PUT', `/payloads/${sms}/comments/${String(created.body.comment_id)}`, {});
    expect(noChange.status).toBe(400);
  });

  it('keeps a span to the tenth of a second as drawn, up to the very end, and refuses finer spans', async () => {
    const drawn = await call('POST', `/payloads/${call1}/comments`, { message: 'Drawn span', comment_duration: { start_time: 6.2, duration: 2.9 } });
    expect(drawn.status).toBe(200);
    const listed = await call('GET', `/payloads/${call1}/comments`);
    expect(listed.body.data?.find((comment) => comment.comment_id === drawn.body.comment_id)?.comment_duration).toEqual({ start_time: 6.2, duration: 2.9 });
    // A span may end on the recording's last tenth.
    const toTheEnd = await call('POST', `/payloads/${call1}/comments`, { message: 'To the end', comment_duration: { start_time: 56.2, duration: 3.8 } });
    expect(toTheEnd.status).toBe(200);
    const finer = await call('POST', `/payloads/${call1}/comments`, { message: 'x', comment_duration: { start_time: 6.25, duration: 1 } });
    expect(finer.status).toBe(400);
    expect(finer.body.message).toBe('body.comment_duration.start_time: Must be a number of seconds with at most one decimal place');
  });

  it('answers 404 for a missing payload or comment, and never shows another tenant', async () => {
    expect((await call('POST', `/payloads/${randomUUID()}/comments`, { message: 'x' })).status).toBe(404);
    expect((await call('GET', `/payloads/${randomUUID()}/comments`)).status).toBe(404);
    expect((await call('PUT', `/payloads/${call1}/comments/01J00000000000000000000000`, { message: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/payloads/${call1}/comments/01J00000000000000000000000`)).status).toBe(404);
    // acme's admin on acme's own path: the demo payload does not exist there.
    expect((await call('GET', `/payloads/${call1}/comments`, undefined, acme, 'acme')).status).toBe(404);
    // acme's admin on demo's path: refused by the tenant check.
    expect((await call('GET', `/payloads/${call1}/comments`, undefined, acme)).status).toBe(403);
  });

  it("lets the reviewer read and comment, but not edit or close anyone's comment", async () => {
    const raised = await call('POST', `/payloads/${sms}/comments`, { message: 'Reviewed: nothing to add' }, reviewer);
    expect(raised.status).toBe(200);
    const id = String(raised.body.comment_id);
    const read = await call('GET', `/payloads/${sms}/comments`, undefined, reviewer);
    expect(read.status).toBe(200);
    expect(read.body.data?.map((comment) => comment.comment_id)).toContain(id);
    expect((await call('PUT', `/payloads/${sms}/comments/${id}`, { message: 'changed' }, reviewer)).status).toBe(403);
    expect((await call('DELETE', `/payloads/${sms}/comments/${id}`, undefined, reviewer)).status).toBe(403);
  });

  it('lists comments across the tenant with filters, totals and a bound cursor', async () => {
    const photo = await payload('Photo', { group: `other-${run}` });
    for (const message of ['one', 'two', 'three']) {
      expect((await call('POST', `/payloads/${photo}/comments`, { message })).status).toBe(200);
    }
    const today = new Date().toISOString().slice(0, 10);
    const first = await call('GET', `/comments?payload_types=Photo&group=other-${run}&limit=2&from=${today}`);
    expect(first.status).toBe(200);
    expect(first.body.data?.map((comment) => comment.comment_body)).toEqual(['three', 'two']);
    expect(first.body.last_key).toBeTypeOf('string');
    const second = await call('GET', `/comments?payload_types=Photo&group=other-${run}&limit=2&from=${today}&last_key=${encodeURIComponent(String(first.body.last_key))}`);
    expect(second.body.data?.map((comment) => comment.comment_body)).toEqual(['one']);
    expect(second.body.last_key).toBeUndefined();
    // The cursor is bound to its filters.
    const other = await call('GET', `/comments?payload_types=Call&limit=2&last_key=${encodeURIComponent(String(first.body.last_key))}`);
    expect(other.status).toBe(400);
    const total = await call('GET', `/comments?group=other-${run}&result_type=total`);
    expect(total.body).toEqual({ count: 3 });
    const calls = await call('GET', `/comments?payload_types=Call&group=other-${run}&result_type=total`);
    expect(calls.body).toEqual({ count: 0 });
    // Groups of types expand server-side; the raiser filter is exact and declared (400 when empty).
    expect((await call('GET', `/comments?payload_types=Calls,Messages&group=other-${run}&result_type=total`)).body).toEqual({ count: 0 });
    expect((await call('GET', `/comments?payload_types=Calls&group=grp-${run}&include_closed=true&result_type=total`)).body.count).toBeGreaterThan(0);
    const mine = await call('GET', `/comments?group=other-${run}&raised_by=demo-admin`);
    expect(mine.body.data?.map((comment) => comment.comment_body)).toEqual(['three', 'two', 'one']);
    expect((await call('GET', `/comments?group=other-${run}&raised_by=reviewer@demo.test&result_type=total`)).body).toEqual({ count: 0 });
    expect((await call('GET', `/comments?raised_by=`)).status).toBe(400);
    const closedIncluded = await call('GET', `/comments?group=grp-${run}&include_closed=true&result_type=total`);
    const closedHidden = await call('GET', `/comments?group=grp-${run}&result_type=total`);
    expect(Number(closedIncluded.body.count)).toBeGreaterThan(Number(closedHidden.body.count));
  });
});
