import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { appendUserActivity } from '#core/audit/append-activity.ts';
import { verifyChain } from '#core/audit/verify-chain.ts';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { keys } from '#core/store/keys.ts';
import { main } from '../../scripts/audit-verify.ts';
import { signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * The audit log on DynamoDB Local: the hash chain under concurrent appends, tamper detection (by verifyChain and by
 * the `audit:verify` script), and `GET activities` over HTTP. Chains are built in tenants of this run only, so the
 * activity other test files cause in demo and acme never meets them; the HTTP tests use demo with this run's user.
 */
const run = randomUUID().slice(0, 8);
let deps: Dependencies;

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

async function chainOf(client: string, length: number): Promise<void> {
  for (let index = 1; index <= length; index += 1) await appendUserActivity(deps, client, entry(index));
}

const verifyScript = async (client: string) => {
  const lines: string[] = [];
  const code = await main([client, '--endpoint', stack().dynamoEndpoint], { env: {}, out: (line) => lines.push(line), err: (line) => lines.push(line) });
  return { code, lines };
};

beforeAll(() => {
  deps = buildDependencies(loadConfig({ ...stack().env, LOG_LEVEL: 'error' }));
});

describe('the user-activity hash chain on DynamoDB', () => {
  it('stays whole under 50 concurrent appends: sequences 1..50, no gaps, no fork', { timeout: 180_000 }, async () => {
    const client = `it-audit-${run}-c`;
    const links = await Promise.all(Array.from({ length: 50 }, (_, index) => appendUserActivity(deps, client, entry((index % 28) + 1))));
    expect(links.map((link) => link.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(await verifyChain(deps, client)).toEqual({ whole: true, count: 50 });
    expect(await verifyScript(client)).toEqual({ code: 0, lines: [`Audit chain of ${client} is whole: 50 records`] });
  });

  it('names a record whose field was edited in the table', { timeout: 60_000 }, async () => {
    const client = `it-audit-${run}-e`;
    await chainOf(client, 5);
    await deps.table.update(keys.userActivity.item(client, entry(3).activity_time, 3), { set: { is_allowed: true } });
    expect(await verifyChain(deps, client)).toMatchObject({ whole: false, brokenAt: 3, reason: 'edited' });
    const script = await verifyScript(client);
    expect(script.code).toBe(1);
    expect(script.lines[0]).toMatch(new RegExp(`^Audit chain of ${client} is broken at record #3: edited`));
  });

  it('has the verify script refuse a missing or malformed client before touching any table', async () => {
    const lines: string[] = [];
    const io = { env: {}, out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    expect(await main([], io)).toBe(2);
    expect(await main(['C#demo'], io)).toBe(2);
    expect(lines.join('\n')).toContain('Not a client: "C#demo"');
  });

  it('names a deleted record', { timeout: 60_000 }, async () => {
    const client = `it-audit-${run}-d`;
    await chainOf(client, 5);
    await deps.table.delete(keys.userActivity.item(client, entry(2).activity_time, 2));
    expect(await verifyChain(deps, client)).toMatchObject({ whole: false, brokenAt: 2, reason: 'missing' });
  });
});

describe('GET activities', () => {
  const user = `it-audit-${run}`;
  let demoToken: string;
  let acmeToken: string;

  beforeAll(async () => {
    for (let index = 1; index <= 7; index += 1) await appendUserActivity(deps, 'demo', entry(index, user));
    await appendUserActivity(deps, 'acme', entry(1, user));
    [demoToken, acmeToken] = await Promise.all([signIn('admin@demo.test'), signIn('admin@acme.test')]).then((tokens) => tokens.map((t) => t.id_token)) as [string, string];
  }, 60_000);

  const list = async (client: string, query: Record<string, string>, token = demoToken) => {
    const response = await api(`/api/v1/${client}/activities?${new URLSearchParams(query)}`, { headers: bearer(token) });
    return { status: response.status, body: (await response.json()) as { count: number; last_key?: string; data: Array<Record<string, unknown>>; message?: string } };
  };
  const days = (data: Array<Record<string, unknown>>) => data.map((activity) => Number(String(activity.activity_time).slice(8, 10)));

  it('pages newest first with a cursor, every record as the contract shows it', async () => {
    const seen: number[] = [];
    let last_key: string | undefined;
    let pages = 0;
    do {
      const page = await list('demo', { user_id: user, limit: '3', ...(last_key ? { last_key } : {}) });
      expect(page.status).toBe(200);
      seen.push(...days(page.body.data));
      for (const activity of page.body.data) {
        expect(activity).toMatchObject({ user_id: user, roles: ['admin'], is_client_app: false });
        expect(activity).not.toHaveProperty('hash');
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

  it('keeps the tenant chain whole while real calls and these appends interleave', async () => {
    expect(await verifyChain(deps, 'demo')).toMatchObject({ whole: true });
    expect(await verifyChain(deps, 'acme')).toMatchObject({ whole: true });
  });
});
