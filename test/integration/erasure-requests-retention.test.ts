import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureRequestKeys } from '#core/store/entities/erasure-request.ts';
import { keys } from '#core/store/keys.ts';
import { readAll } from '#core/store/paging.ts';
import type { ErasureRequest } from '#shared/contract/entities/erasure-requests.ts';
import { DESTROY_GRACE_DAYS, ERASURE_REQUEST_DAYS } from '../../lambdas/account-data/retention/retention-defaults.ts';
import { retentionRunTo } from './support/retention-run.ts';
import { createRunTenant, type RunTenant } from './support/run-tenant.ts';

/**
 * Erasure requests under retention (ErasureRequestData), on the local stack: a request that has ended (rejected, or
 * erased and reported) is the firm's evidence of its answer and is kept for its period from its end; one still open is
 * never due. Past the period retention marks it Deleted (out of the list and reads), and past destruction removes it,
 * each with a disposal record.
 */
let tenant: RunTenant;
let second: string;
const DAY = 86_400_000;

const requestKey = (reference: string) => erasureRequestKeys.key(tenant.client, reference);
const marker = (reference: string) => tenant.deps.table.get(keys.retentionDue.key(tenant.client, requestKey(reference), 'at'), { consistent: true });
const stored = (reference: string) => tenant.deps.table.get(requestKey(reference), { consistent: true });

async function recorded(user: string): Promise<string> {
  const now = new Date().toISOString();
  await tenant.deps.table.put({ ...keys.deviceUser.item(tenant.client, user), client: tenant.client, device_user_reference: user, first_name: 'Kim', surname: user, is_active: false, offboard_date: now, services: [], updated_at: now });
  const received = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19);
  const answer = await tenant.call('POST', '/account/erasure_requests', tenant.admin, { device_user_reference: user, requester: { type: 'DataSubject' }, received_at: received, channel: 'Email' });
  expect(answer.status).toBe(201);
  return answer.body.erasure_request_reference as string;
}

async function waitFor(reference: string, state: string): Promise<ErasureRequest> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const request = (await tenant.call('GET', `/account/erasure_requests/${reference}`, tenant.admin)).body as unknown as ErasureRequest;
    if (request.erasure_state === state) return request;
    if (Date.now() > deadline) throw new Error(`Erasure request ${reference} is still ${request.erasure_state}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const retentionRun = (now: string) => retentionRunTo(tenant.deps, tenant.client, now);

beforeAll(async () => {
  tenant = await createRunTenant('erasure-kept');
  second = await tenant.secondAdmin();
}, 120_000);
afterAll(() => tenant?.close());

describe('erasure requests under retention (ErasureRequestData)', () => {
  it('keeps a rejected and a completed request for their period from their end, never an open one, then disposes of them', { timeout: 240_000 }, async () => {
    const rejected = await recorded('kim-one');
    await waitFor(rejected, 'Decided');
    // Decided and awaiting review: open, so not due whatever the time.
    expect(await marker(rejected)).toBeUndefined();
    const review = await tenant.call('POST', `/account/erasure_requests/${rejected}/review`, second, { decision: 'Reject', reason: 'Not the person' });
    expect(review.status).toBe(200);
    const ended = (await waitFor(rejected, 'Rejected')).completed_at;
    expect(await marker(rejected)).toMatchObject({ record_type: 'ErasureRequestData', base_time: ended, reference: rejected });

    const completed = await recorded('kim-two');
    await waitFor(completed, 'Decided');
    expect((await tenant.call('POST', `/account/erasure_requests/${completed}/review`, second, { decision: 'Approve', reason: 'Erase' })).status).toBe(200);
    const done = await waitFor(completed, 'Completed');
    expect(await marker(completed)).toMatchObject({ record_type: 'ErasureRequestData', base_time: done.completed_at });

    const open = await recorded('kim-three');
    await waitFor(open, 'Decided');

    // Within the period nothing goes.
    await retentionRun(new Date(Date.now() + (ERASURE_REQUEST_DAYS - 2) * DAY).toISOString());
    expect(await stored(rejected)).not.toHaveProperty('retention_state');

    // Past it: Deleted, out of the list and reads; the open one stays as it was.
    await retentionRun(new Date(Date.now() + (ERASURE_REQUEST_DAYS + 2) * DAY).toISOString());
    for (const reference of [rejected, completed]) {
      expect(await stored(reference)).toMatchObject({ retention_state: 'Deleted' });
      expect((await tenant.call('GET', `/account/erasure_requests/${reference}`, tenant.admin)).status).toBe(404);
    }
    const listed = await tenant.call('GET', '/account/erasure_requests?limit=100', tenant.admin);
    expect((listed.body.data as ErasureRequest[]).map((request) => request.erasure_request_reference)).toEqual([open]);
    expect(await stored(open)).toMatchObject({ erasure_state: 'Decided' });

    // Past destruction: gone, each with its disposal record.
    await retentionRun(new Date(Date.now() + (ERASURE_REQUEST_DAYS + DESTROY_GRACE_DAYS + 2) * DAY).toISOString());
    expect(await stored(rejected)).toBeUndefined();
    expect(await stored(completed)).toBeUndefined();
    expect(await stored(open)).toMatchObject({ erasure_state: 'Decided' });
    const disposals = await readAll(tenant.deps.table, { ...keys.disposal.list(tenant.client), consistent: true });
    for (const reference of [rejected, completed]) {
      const disposed = disposals.filter((entry) => entry.reference === reference);
      expect(disposed.map((entry) => [entry.record_type, entry.action]).sort()).toEqual([['ErasureRequestData', 'Deleted'], ['ErasureRequestData', 'Destroyed']]);
    }
  });
});
