import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { writeActivityRecord } from '../../lambdas/audit/trail/activity-log.ts';
import { writeCheckpoint } from '../../lambdas/audit/trail/checkpoint.ts';
import { linkPending } from '../../lambdas/audit/trail/sequencer.ts';
import { LOCAL_AUDIT_SIGNING_KEY_ID } from '../../lambdas/audit/trail/signing-key.ts';
import { verifyChain } from '../../lambdas/audit/trail/verify-chain.ts';
import { buildDependencies, setDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { createLogger } from '#core/logger.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem, TableStore } from '#core/ports/table-store.ts';
import { keys, type ActivityTrail } from '#core/store/keys.ts';
import { eventFor, testContext } from '#core/testing/http-events.ts';
import { main } from '../../scripts/audit-verify.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The audit trails on DynamoDB Local: records written by concurrent calls, racing sequencers linking them into one
 * chain, tampering named by the `audit:verify` script, `GET activities` and `GET activities/chain` over HTTP, and a
 * call failing (500, nothing done) when its record cannot be written. Chains built directly live in tenants of this
 * run only, so the activity other test files cause in demo and acme never meets them.
 */
const run = randomUUID().slice(0, 8);
let deps: Dependencies;
const signing = { signingKeyId: LOCAL_AUDIT_SIGNING_KEY_ID };

const entry = (index: number, userId = `it-audit-${run}`) => ({
  user_id: userId,
  // Fixed days of 2001: nothing else in the shared table is that old, so time filters see only these.
  activity_time: `2001-02-${String(index).padStart(2, '0')}T10:00:00.000Z`,
  action: index % 2 === 0 ? 'roles:Update' : 'roles:List',
  is_allowed: index !== 3,
  ...(index === 3 ? { denial_reason: 'No permission for roles:List' } : {}),
  roles: ['admin'],
  is_client_app: false,
  status_code: index === 3 ? 403 : 200,
});

const verifyScript = async (client: string) => {
  const lines: string[] = [];
  const io = { env: { DATA_DIR: stack().dataDir }, out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  const code = await main([client, '--endpoint', stack().dynamoEndpoint], io);
  return { code, lines };
};

/** A linked, checkpointed user trail of 6 records in a tenant of its own. */
async function checkpointedTrail(name: string): Promise<string> {
  const client = `it-audit-${run}-${name}`;
  for (let index = 1; index <= 6; index += 1) await writeActivityRecord(deps, { trail: 'user', client, entry: entry(index) });
  await linkPending(deps, 'user', client);
  expect(await writeCheckpoint(deps, 'user', client, LOCAL_AUDIT_SIGNING_KEY_ID)).toBe(true);
  return client;
}

async function linkOf(client: string, sequence: number, trail: ActivityTrail = 'user'): Promise<TableItem> {
  return (await deps.table.get(keys.activityChain.link(trail, client, sequence), { consistent: true })) as TableItem;
}

beforeAll(() => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

describe('the audit trails on DynamoDB', () => {
  it('take 200 concurrent records, and racing sequencers link them all into one unforked chain', { timeout: 180_000 }, async () => {
    const client = `it-audit-${run}-c`;
    await Promise.all(Array.from({ length: 200 }, (_, index) => writeActivityRecord(deps, { trail: 'user', client, entry: entry((index % 28) + 1) })));
    await Promise.all(Array.from({ length: 100 }, (_, index) => writeActivityRecord(deps, { trail: 'device', client, entry: { log_id: `L${index}`, device_reference: 'D', activity_time: entry(1).activity_time, action: 'device:Poll', is_allowed: true } })));
    const runs = await Promise.all(
      (['user', 'user', 'user', 'device', 'device'] as const).map((trail) => linkPending(deps, trail, client, { batchSize: 20 })),
    );
    expect(runs.slice(0, 3).reduce((sum, result) => sum + result.linked, 0)).toBe(200);
    expect(runs.slice(3).reduce((sum, result) => sum + result.linked, 0)).toBe(100);
    expect(await verifyChain(deps, client, 'user', signing)).toMatchObject({ whole: true, linked: 200, pending: 0 });
    const script = await verifyScript(client);
    expect(script.code).toBe(0);
    expect(script.lines).toEqual([
      `User activity of ${client} is whole: 200 records linked, 0 waiting to be linked, 0 signed checkpoints`,
      `Device activity of ${client} is whole: 100 records linked, 0 waiting to be linked, 0 signed checkpoints`,
    ]);
  });

  it('names an edited record, a deleted one and an inserted one', { timeout: 60_000 }, async () => {
    const edited = await checkpointedTrail('e');
    const third = await linkOf(edited, 3);
    await deps.table.update(keys.activityChain.record('user', edited, String(third.record)), { set: { is_allowed: true } });
    let script = await verifyScript(edited);
    expect(script.code).toBe(1);
    expect(script.lines[0]).toBe(`User activity of ${edited} is broken at record #3 (${String(third.record)}): edited: record #3 (${String(third.record)}) was changed after it was linked (a field was changed, added or removed)`);

    const deleted = await checkpointedTrail('d');
    const second = await linkOf(deleted, 2);
    await deps.table.delete(keys.activityChain.record('user', deleted, String(second.record)));
    script = await verifyScript(deleted);
    expect(script.lines[0]).toMatch(new RegExp(`^User activity of ${deleted} is broken at record #2 \\(.+\\): missing`));

    const inserted = await checkpointedTrail('i');
    const original = (await deps.table.get(keys.activityChain.record('user', inserted, String((await linkOf(inserted, 4)).record)))) as TableItem;
    const forgedSort = '2001-02-04T11:00:00.000Z#01JFORGEDRECORD00000000000';
    await deps.table.put({ ...original, sk: forgedSort, is_allowed: false });
    script = await verifyScript(inserted);
    expect(script.lines[0]).toBe(`User activity of ${inserted} is broken at record ${forgedSort}: inserted: record ${forgedSort} claims to be #4, but that link names another record`);
  });

  it('names a rewritten chain and an edited checkpoint', { timeout: 60_000 }, async () => {
    const rewritten = await checkpointedTrail('w');
    // Drop the last link and record and point the head back: consistent hashes, but the checkpoint signed 6.
    const sixth = await linkOf(rewritten, 6);
    await deps.table.delete(keys.activityChain.link('user', rewritten, 6));
    await deps.table.delete(keys.activityChain.record('user', rewritten, String(sixth.record)));
    await deps.table.update(keys.activityChain.head('user', rewritten), { set: { sequence: 5, hash: (await linkOf(rewritten, 5)).hash } });
    let script = await verifyScript(rewritten);
    expect(script.lines[0]).toMatch(/is broken at link #6: checkpoint-mismatch: .* vouches for 6 links, the chain has 5: its end was cut off$/);

    const checkpointEdited = await checkpointedTrail('k');
    const page = await deps.table.query({ ...keys.activityChain.checkpoints('user', checkpointEdited), consistent: true });
    await deps.table.update(page.items[0] as TableItem, { set: { sequence: 5 } });
    script = await verifyScript(checkpointEdited);
    expect(script.lines[0]).toMatch(/is broken at checkpoint .*: checkpoint-forged: /);
  });

  it('has the verify script refuse a missing or malformed client before touching any table', async () => {
    const lines: string[] = [];
    const io = { env: {}, out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await main([], io)).toBe(2);
    expect(await main(['C#demo'], io)).toBe(2);
    expect(lines.join('\n')).toContain('Not a client: "C#demo"');
  });
});

describe('calls over HTTP', () => {
  const user = `it-audit-${run}`;
  let demoToken: string;
  let acmeToken: string;

  beforeAll(async () => {
    for (let index = 1; index <= 7; index += 1) await writeActivityRecord(deps, { trail: 'user', client: 'demo', entry: entry(index, user) });
    await writeActivityRecord(deps, { trail: 'user', client: 'acme', entry: entry(1, user) });
    [demoToken, acmeToken] = await Promise.all([signIn('admin@demo.test'), signIn('admin@acme.test')]).then((tokens) => tokens.map((t) => t.id_token)) as [string, string];
  }, 60_000);

  const list = async (client: string, query: Record<string, string>, token = demoToken) => {
    const response = await api(`/api/v1/${client}/activities?${new URLSearchParams(query)}`, { headers: bearer(token) });
    return { status: response.status, body: (await response.json()) as { count: number; last_key?: string; data: Array<Record<string, unknown>>; message?: string } };
  };
  const days = (data: Array<Record<string, unknown>>) => data.map((activity) => Number(String(activity.activity_time).slice(8, 10)));

  it('pages newest first with a cursor, every record as the contract shows it, linked or not', async () => {
    const seen: number[] = [];
    let last_key: string | undefined;
    let pages = 0;
    do {
      const page = await list('demo', { user_id: user, limit: '3', ...(last_key ? { last_key } : {}) });
      expect(page.status).toBe(200);
      seen.push(...days(page.body.data));
      for (const activity of page.body.data) {
        expect(activity).toMatchObject({ user_id: user, roles: ['admin'], is_client_app: false });
        expect(activity).not.toHaveProperty('chain_state');
      }
      last_key = page.body.last_key;
      pages += 1;
    } while (last_key !== undefined && pages < 10);
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('filters by time range, action and outcome, and counts a total', async () => {
    expect(days((await list('demo', { user_id: user, from: '2001-02-02', to: '2001-02-04' })).body.data)).toEqual([4, 3, 2]);
    expect(days((await list('demo', { from: '2001-02-06', to: '2001-02-07-100000' })).body.data)).toEqual([7, 6]);
    expect(days((await list('demo', { user_id: user, action: 'roles:Update' })).body.data)).toEqual([6, 4, 2]);
    const denied = await list('demo', { user_id: user, is_allowed: 'false' });
    expect(denied.body.data).toMatchObject([{ denial_reason: 'No permission for roles:List', status_code: 403 }]);
    expect((await list('demo', { user_id: user, result_type: 'total' })).body).toEqual({ count: 7 });
    const backwards = await list('demo', { from: '2001-02-05', to: '2001-02-04' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('query.from');
  });

  it('never shows one tenant the records of another', async () => {
    expect((await list('demo', {}, acmeToken)).status).toBe(403);
    const acme = await list('acme', { user_id: user }, acmeToken);
    expect(acme.status).toBe(200);
    expect(days(acme.body.data)).toEqual([1]);
    const demoPage = await list('demo', { user_id: user, limit: '2' });
    const replayed = await list('acme', { user_id: user, limit: '2', last_key: demoPage.body.last_key as string }, acmeToken);
    expect(replayed.status).toBe(400);
  });

  it('records each of 200 concurrent calls, and the local sequencer links them all into a whole chain', { timeout: 120_000 }, async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const response = await api('/api/v1/acme/activities?limit=1', { headers: bearer(acmeToken) });
        await response.arrayBuffer();
        return { status: response.status, requestId: response.headers.get('x-request-id') as string };
      }),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const requestIds = new Set(answers.map((answer) => answer.requestId));
    expect(requestIds.size).toBe(200);
    // Every call's record is listed at once (linked or not), found by the request id it carries.
    const recorded = new Set<string>();
    let startKey: Record<string, string> | undefined;
    const since = new Date(Date.now() - 10 * 60_000).toISOString();
    do {
      const page = await deps.table.query({ ...keys.userActivity.list('acme'), sort: { between: [since, '9'] }, limit: 1_000, ...(startKey ? { startKey } : {}) });
      for (const item of page.items) if (requestIds.has(String(item.request_id))) recorded.add(String(item.request_id));
      startKey = page.lastKey;
    } while (startKey !== undefined);
    expect(recorded.size).toBe(200);

    let state: { user_activity: { pending_count: number; linked_count: number } } | undefined;
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const response = await api('/api/v1/acme/activities/chain', { headers: bearer(acmeToken) });
      expect(response.status).toBe(200);
      state = (await response.json()) as typeof state;
      if (state?.user_activity.pending_count === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The chain-state call itself is recorded too, so at most that one may still wait.
    expect(state?.user_activity.pending_count).toBeLessThanOrEqual(1);
    expect(state?.user_activity.linked_count).toBeGreaterThanOrEqual(200);
    const script = await verifyScript('acme');
    expect(script.code).toBe(0);
  });

  it('answers the chain state in the contract shape', async () => {
    const response = await api('/api/v1/demo/activities/chain', { headers: bearer(demoToken) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, Record<string, unknown>>;
    for (const trail of ['user_activity', 'device_activity']) {
      expect(Object.keys(body[trail] as object).sort()).toEqual(['head_hash', 'head_sequence', 'last_checkpoint_at', 'linked_count', 'oldest_pending_at', 'pending_count']);
    }
    expect((await api('/api/v1/demo/activities/chain', { headers: bearer(acmeToken) })).status).toBe(403);
  });
});

describe('a call whose record cannot be written', () => {
  afterEach(() => setDependencies());

  /** The real access handler in this process, over the stack's table, except that activity records fail. */
  async function handlerWithBrokenAuditStore() {
    const refuses = (item: { entity?: unknown }) => item.entity === 'UserActivity';
    const table: TableStore = {
      ...deps.table,
      put: async (item, options) => {
        if (refuses(item)) throw new Error('audit store down');
        return deps.table.put(item, options);
      },
      update: async (key, update, options) => {
        if (update.set?.chain_state !== undefined) throw new Error('audit store down');
        return deps.table.update(key, update, options);
      },
    };
    const logLines: string[] = [];
    setDependencies({ ...deps, table, logger: createLogger({ level: 'error', sink: (line) => logLines.push(line) }) });
    const { handler } = await import('../../lambdas/access/handler.ts');
    return { handler, logLines };
  }

  it('fails with a 500 and does nothing: a change is never made unrecorded, a read never answered', { timeout: 60_000 }, async () => {
    const { handler, logLines } = await handlerWithBrokenAuditStore();
    const token = (await signIn('admin@demo.test')).id_token;
    const roleReference = `it-${run}-unrecorded`;
    const putRole = { method: 'PUT', fullPath: '/api/v1/{client}/roles/{role_reference}' } as const;
    const answer = await handler(
      eventFor(putRole, {
        pathParameters: { client: 'demo', role_reference: roleReference },
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ permissions: [{ actions_matching: 'devices:*' }], alert_permissions: { ops_read: true, ops_write: false, sec_read: false, sec_write: false } }),
      }),
      testContext,
    );
    expect(answer.statusCode).toBe(500);
    expect(await deps.table.get(keys.role.item('demo', roleReference), { consistent: true })).toBeUndefined();

    const listRoles = { method: 'GET', fullPath: '/api/v1/{client}/roles' } as const;
    const read = await handler(eventFor(listRoles, { pathParameters: { client: 'demo' }, headers: { authorization: `Bearer ${token}` } }), testContext);
    expect(read.statusCode).toBe(500);
    expect(read.body).not.toContain('role_reference');
    expect(logLines.filter((line) => line.includes('Activity not recorded') && line.includes('audit store down'))).toHaveLength(2);
    expect(auditEndpoints).toHaveLength(7); // with the record versions and the trail exports
  });
});
