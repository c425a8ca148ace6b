import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeDestroyedRecordingComments } from '../../lambdas/payloads/comments/destroyed-recording-comments.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Record versions end to end: a comment edited twice, a role replaced and a retention policy set again each keep the
 * version they replaced, exactly as it was stored; `GET history/{entity}/{reference}` answers them newest first and
 * refuses hostile names; the audit chain's verification fails when a version's stored content is altered.
 */
const run = randomUUID().slice(0, 8);
let deps: Dependencies;
let admin: string;
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

const stored = async (key: { pk: string; sk: string }) => (await deps.table.get(key, { consistent: true })) as TableItem;
const history = (entity: string, reference: string, as = admin, client = 'demo') => call('GET', `/history/${entity}/${encodeURIComponent(reference)}`, undefined, as, client);

beforeAll(async () => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
  [admin, acme] = (await Promise.all(['admin@demo.test', 'admin@acme.test'].map(async (email) => (await signIn(email)).id_token))) as [string, string];
});

describe('record versions', () => {
  let payloadReference: string;
  let commentId: string;
  const states: TableItem[] = [];

  it('keeps each earlier state of a comment edited twice, exactly, and answers them newest first', async () => {
    payloadReference = randomUUID();
    await deps.table.put({
      ...keys.payload.item('demo', { payloadReference, payloadTime: '2024-05-01T10:00:00.000Z', deviceReference: `dev-${run}` }),
      payload_reference: payloadReference,
      device_reference: `dev-${run}`,
      payload_type: 'Call',
      payload_state: 'Processed',
      payload_full_duration: 60,
    });
    const created = await call('POST', `/payloads/${payloadReference}/comments`, { message: 'First wording' });
    expect(created.status).toBe(200);
    commentId = String(created.body.comment_id);
    const key = keys.comment.key('demo', payloadReference, commentId);
    states.push(await stored(key));
    expect((await call('PUT', `/payloads/${payloadReference}/comments/${commentId}`, { message: 'Second wording' })).status).toBe(200);
    states.push(await stored(key));
    expect((await call('PUT', `/payloads/${payloadReference}/comments/${commentId}`, { message: 'Third wording' })).status).toBe(200);

    const answer = await history('comment', `${payloadReference}~${commentId}`);
    expect(answer.status).toBe(200);
    const versions = answer.body.data ?? [];
    expect(versions).toHaveLength(2);
    // Newest first: the second wording was replaced last.
    expect(versions.map((version) => version.record)).toEqual([states[1], states[0]]);
    expect(versions[0]).toMatchObject({ kind: 'comment', change: 'updated', replaced_by: 'demo-admin', replaced_by_actor: { email: 'admin@demo.test' } });
    expect(String(versions[0]?.log_id)).toMatch(/^[0-9A-Z]{26}$/);
    expect(String(versions[0]?.sha256)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the role a replacement replaced and the retention policy a change replaced, exactly', async () => {
    const roleReference = `versions-${run}`;
    const role = (description: string) => ({ permissions: [{ actions_matching: 'devices:*' }], alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false }, description });
    expect((await call('PUT', `/roles/${roleReference}`, role('first'))).status).toBe(200);
    const first = await stored(keys.role.item('demo', roleReference));
    expect((await call('PUT', `/roles/${roleReference}`, role('second'))).status).toBe(200);
    const roles = await history('role', roleReference);
    expect(roles.status).toBe(200);
    expect(roles.body.data?.map((version) => version.record)).toEqual([first]);

    const policy = await call('GET', '/account/retention');
    expect(policy.status).toBe(200);
    // The policy as it is, set again: only the request's own fields (the answer adds the lock facts and who set it).
    const request = Object.fromEntries(Object.keys(RetentionPolicyRequest.shape).flatMap((field) => (field in policy.body ? [[field, policy.body[field]]] : [])));
    expect((await call('PUT', '/account/retention', request)).status).toBe(200);
    const before = await stored(keys.retentionPolicy.key('demo'));
    expect((await call('PUT', '/account/retention', request)).status).toBe(200);
    const policies = await history('retention-policy', 'demo');
    expect(policies.status).toBe(200);
    expect(policies.body.data?.[0]?.record).toEqual(before);
  });

  it('refuses hostile history queries with a 4xx naming the problem', async () => {
    const unknown = await history('payload', 'x');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/entity/);
    const badReference = await history('comment', 'no-separator');
    expect(badReference.status).toBe(400);
    expect(badReference.body.message).toMatch(/reference/);
    expect((await history('comment', `${randomUUID()}~nothing`)).status).toBe(404);
    // Another tenant's records: its policy by name, and this tenant's comment from the other tenant's path.
    expect((await history('retention-policy', 'acme')).status).toBe(404);
    expect((await history('comment', `${payloadReference}~${commentId}`, acme, 'acme')).status).toBe(404);
    expect((await history('comment', `${payloadReference}~${commentId}`, acme, 'demo')).status).toBe(403);
    expect((await history('role', 'x'.repeat(600))).status).toBe(400);
  });

  it('fails the chain verification when a version is altered in the table, and holds again once restored', { timeout: 120_000 }, async () => {
    await linkPending(deps, 'user', 'demo');
    const signing = { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID };
    const whole = await verifyChain(deps, 'demo', 'user', signing);
    expect(whole).toMatchObject({ whole: true });
    expect(whole.versions ?? 0).toBeGreaterThanOrEqual(4);

    const list = keys.recordVersion.listOf(keys.comment.key('demo', payloadReference, commentId));
    const [version] = (await deps.table.query({ partition: list.partition, sort: list.sort, descending: true, consistent: true })).items;
    if (version === undefined) throw new Error('no version stored');
    const original = structuredClone(version);
    await deps.table.put({ ...version, record: { ...(version.record as object), comment_body: 'Rewritten behind Verity' } });
    try {
      const broken = await verifyChain(deps, 'demo', 'user', signing);
      expect(broken).toMatchObject({ whole: false, broken: { reason: 'edited' } });
      expect(broken.broken?.detail).toMatch(/record version .* no longer matches its digest/);
    } finally {
      await deps.table.put(original);
    }
    expect(await verifyChain(deps, 'demo', 'user', signing)).toMatchObject({ whole: true });
  });

  it('removes a destroyed recording\'s comment versions with its comments: no earlier wording outlives them', async () => {
    const list = keys.recordVersion.listOf(keys.comment.key('demo', payloadReference, commentId));
    const versionsLeft = async () => (await deps.table.query({ partition: list.partition, sort: list.sort, consistent: true })).items.length;
    expect(await versionsLeft()).toBe(2);
    expect(await removeDestroyedRecordingComments(deps, 'demo', payloadReference)).toEqual({ removed: 1, left: 'none' });
    expect(await versionsLeft()).toBe(0);
  });
});
