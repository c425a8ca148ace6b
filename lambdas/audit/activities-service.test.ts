import { describe, expect, it } from 'vitest';
import { writeActivityRecord } from './trail/activity-log.ts';
import { linkPending } from './trail/sequencer.ts';
import { tenantCaller } from '#core/testing/callers.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { ValidationError } from '#core/errors.ts';
import { createLogger } from '#core/logger.ts';
import { createCursorCodec, type Page } from '#core/store/cursor.ts';
import type { UserActivity } from '#shared/contract/entities/activity.ts';
import { listActivities, type ActivityQuery } from './activities-service.ts';
import { isoOf, timeRange } from '#core/store/time-range.ts';

const clock = { now: () => new Date('2025-03-01T00:00:00.000Z') };

async function setUp() {
  const table = createMemoryTable();
  for (let day = 1; day <= 9; day += 1) {
    for (const client of ['acme', 'demo']) {
      await writeActivityRecord({ table, clock }, { trail: 'user', client, entry: {
        user_id: day % 3 === 0 ? 'carol' : 'alice',
        activity_time: `2025-01-0${day}T12:00:00.000Z`,
        action: day % 2 === 0 ? 'roles:Update' : 'roles:List',
        is_allowed: day !== 5,
        denial_reason: day === 5 ? 'Not allowed' : undefined,
        roles: ['admin'],
        is_client_app: false,
      } });
    }
  }
  const dependencies = { table, cursors: createCursorCodec('x'.repeat(32)), logger: createLogger({ sink: () => undefined }) };
  const list = (client: string, query: Partial<ActivityQuery>) =>
    listActivities(tenantCaller(dependencies, client, undefined, { action: 'activities:List' }), { limit: 50, result_type: 'page', ...query });
  return { table, list };
}

const days = (page: unknown) => (page as Page<UserActivity>).data.map((activity) => Number(activity.activity_time.slice(8, 10)));

describe('GET activities', () => {
  it('lists newest first as the contract entity, without chain fields, linked or not', async () => {
    const { list, table } = await setUp();
    await linkPending({ table, clock }, 'user', 'acme', { batchSize: 5, maxBatches: 1 });
    const page = (await list('acme', {})) as Page<UserActivity>;
    expect(days(page)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(Object.keys(page.data[0] as object)).not.toContain('chain_state');
    expect(page.last_key).toBeUndefined();
    expect(Object.keys(page.data[0] as object)).not.toContain('hash');
    expect(Object.keys(page.data[0] as object)).not.toContain('pk');
  });

  it('pages with a signed cursor bound to the tenant and the filters', async () => {
    const { list } = await setUp();
    const first = (await list('acme', { limit: 4 })) as Page<UserActivity>;
    const second = (await list('acme', { limit: 4, last_key: first.last_key as string })) as Page<UserActivity>;
    const third = (await list('acme', { limit: 4, last_key: second.last_key as string })) as Page<UserActivity>;
    expect([...days(first), ...days(second), ...days(third)]).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(third.last_key).toBeUndefined();
    const exact = (await list('acme', { limit: 9 })) as Page<UserActivity>;
    expect(exact.count).toBe(9);
    expect(exact.last_key).toBeUndefined();
    await expect(list('demo', { limit: 4, last_key: first.last_key as string })).rejects.toBeInstanceOf(ValidationError);
    await expect(list('acme', { limit: 4, action: 'roles:List', last_key: first.last_key as string })).rejects.toBeInstanceOf(ValidationError);
    await expect(list('acme', { last_key: `${first.last_key as string}x` })).rejects.toBeInstanceOf(ValidationError);
  });

  it('filters by time range, user, action and outcome, paging through filtered results', async () => {
    const { list } = await setUp();
    expect(days(await list('acme', { from: '2025-01-03', to: '2025-01-05' }))).toEqual([5, 4, 3]);
    expect(days(await list('acme', { from: '2025-01-08' }))).toEqual([9, 8]);
    expect(days(await list('acme', { to: '2025-01-02-115959' }))).toEqual([1]);
    expect(days(await list('acme', { user_id: 'carol' }))).toEqual([9, 6, 3]);
    expect(days(await list('acme', { action: 'roles:Update', from: '2025-01-05' }))).toEqual([8, 6]);
    expect(days(await list('acme', { is_allowed: false }))).toEqual([5]);
    const first = (await list('acme', { user_id: 'alice', limit: 2 })) as Page<UserActivity>;
    const second = (await list('acme', { user_id: 'alice', limit: 5, last_key: first.last_key as string })) as Page<UserActivity>;
    expect([...days(first), ...days(second)]).toEqual([8, 7, 5, 4, 2, 1]);
  });

  it("reads one person's records on their own index (a Query of theirs, not a filter of everyone's)", async () => {
    const { list, table } = await setUp();
    const indexes: Array<string | undefined> = [];
    const query = table.query.bind(table);
    table.query = async (spec) => (indexes.push(spec.index), query(spec));
    const page = (await list('acme', { user_id: 'carol', limit: 50 })) as Page<UserActivity>;
    expect(days(page)).toEqual([9, 6, 3]);
    expect(indexes).toEqual(['gsi3']);
  });

  it('filters by kind: reads (List) or changes (Update), from the action wording of the contract', async () => {
    const { list } = await setUp();
    expect(days(await list('acme', { kind: 'read' }))).toEqual([9, 7, 5, 3, 1]);
    expect(days(await list('acme', { kind: 'change' }))).toEqual([8, 6, 4, 2]);
    expect(days(await list('acme', { kind: 'change', user_id: 'carol' }))).toEqual([6]);
    expect(await list('acme', { kind: 'read', result_type: 'total' })).toEqual({ count: 5 });
  });

  it('counts a total from the head and the pending index, or by reading a narrowed list', async () => {
    const { list, table } = await setUp();
    expect(await list('acme', { result_type: 'total' })).toEqual({ count: 9 });
    await linkPending({ table, clock }, 'user', 'acme', { batchSize: 4 });
    let queries = 0;
    const query = table.query.bind(table);
    table.query = async (spec) => ((queries += 1), query(spec));
    expect(await list('acme', { result_type: 'total' })).toEqual({ count: 9 });
    expect(queries).toBe(2); // the newest checkpoint and the (now empty) pending index, no record read
    expect(await list('acme', { result_type: 'total', user_id: 'carol', from: '2025-01-04' })).toEqual({ count: 2 });
    expect(await list('nobody', { result_type: 'total' })).toEqual({ count: 0 });
  });

  it('refuses a range that ends before it starts with a 400', async () => {
    const { list } = await setUp();
    await expect(list('acme', { from: '2025-01-05', to: '2025-01-04' })).rejects.toThrow('query.from: Must not be after to');
  });
});

describe('date ranges', () => {
  it('reads the contract date params as UTC bounds that include the whole day or second', () => {
    expect(isoOf('2025-01-02', 'start')).toBe('2025-01-02T00:00:00.000Z');
    expect(isoOf('2025-01-02', 'end')).toBe('2025-01-02T23:59:59.999Z');
    expect(isoOf('2025-01-02-165001', 'end')).toBe('2025-01-02T16:50:01.999Z');
    const [lower, upper] = timeRange('2025-01-02', '2025-01-02') as [string, string];
    const key = '2025-01-02T23:59:59.999Z#01JDQ4W6Y0M7P3G9H2K5N8R1TV';
    expect(lower <= key && key <= upper).toBe(true);
    expect(timeRange(undefined, undefined)).toBeUndefined();
  });
});
