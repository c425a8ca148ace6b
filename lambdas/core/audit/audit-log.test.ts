import { describe, expect, it } from 'vitest';
import { ConditionFailedError, type TableItem } from '../ports/table-store.ts';
import { keys } from '../store/keys.ts';
import { contentOf, hashContent } from './activity-chain.ts';
import { appendUserActivity, appendUserActivityWith } from './append-activity.ts';
import { createMemoryTable, type MemoryTable } from '../testing/memory-table.ts';
import { recordUserActivity } from './record-user-activity.ts';
import type { Dependencies } from '../dependencies.ts';
import { verifyChain } from './verify-chain.ts';

const client = 'acme';
const clock = { now: () => new Date('2025-03-01T00:00:00.000Z') };
const noWait = { sleep: async () => undefined };

const entry = (index: number) => ({
  user_id: `user-${index % 3}`,
  activity_time: `2025-01-01T00:00:${String(index % 60).padStart(2, '0')}.000Z`,
  action: index % 2 === 0 ? 'roles:List' : 'groups:Update',
  is_allowed: index % 4 !== 3,
  roles: ['admin'],
  is_client_app: false,
});

async function chainOf(length: number): Promise<MemoryTable> {
  const table = createMemoryTable();
  for (let index = 1; index <= length; index += 1) await appendUserActivity({ table, clock }, client, entry(index), noWait);
  return table;
}

const recordAt = (table: MemoryTable, sequence: number): TableItem =>
  table.items.get(`${keys.userActivity.chain(client).partition}\u0000${keys.userActivity.sequenceSort(sequence)}`) as TableItem;

describe('appending user activity', () => {
  it('chains records 1, 2, 3 with each previous hash, and moves the head', async () => {
    const table = await chainOf(3);
    const [one, two, three] = [1, 2, 3].map((sequence) => recordAt(table, sequence)) as [TableItem, TableItem, TableItem];
    expect(one.previous_hash).toBe('0'.repeat(64));
    expect(two.previous_hash).toBe(one.hash);
    expect(three.previous_hash).toBe(two.hash);
    expect(await table.get(keys.userActivity.head(client))).toMatchObject({ sequence: 3, hash: three.hash });
    expect(three.gsi1sk).toBe('2025-01-01T00:00:03.000Z#SEQ%23000000000003');
  });

  it('never forks under concurrent appends: every record gets its own sequence, all linked', async () => {
    const table = createMemoryTable();
    const links = await Promise.all(
      Array.from({ length: 30 }, (_, index) => appendUserActivity({ table, clock }, client, entry(index), { ...noWait, random: Math.random })),
    );
    expect(links.map((link) => link.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(await verifyChain({ table }, client)).toEqual({ whole: true, count: 30 });
  });

  it('retries a lost race with jittered backoff, and gives up after the bound', async () => {
    const table = createMemoryTable();
    let conflicts = 2;
    table.beforeTransact = () => {
      if (conflicts-- > 0) throw Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException' });
    };
    const delays: number[] = [];
    await appendUserActivity({ table, clock }, client, entry(1), { random: () => 0.5, sleep: async (ms) => void delays.push(ms) });
    expect(delays).toHaveLength(2);
    table.beforeTransact = () => {
      throw new ConditionFailedError('Conflict');
    };
    await expect(appendUserActivity({ table, clock }, client, entry(2), { ...noWait, maxAttempts: 3 })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await verifyChain({ table }, client)).toEqual({ whole: true, count: 1 });
  });

  it('commits companion writes with the record or not at all, and lets them abandon the append', async () => {
    const table = createMemoryTable();
    const marker = { pk: 'C#acme#MARKERS', sk: 'ONE', entity: 'Marker' };
    const once = async () => ((await table.get(marker, { consistent: true })) === undefined ? [{ kind: 'put' as const, item: marker, condition: { kind: 'item-not-exists' as const } }] : undefined);
    expect(await appendUserActivityWith({ table, clock }, client, entry(1), once, noWait)).toMatchObject({ sequence: 1 });
    expect(await table.get(marker)).toBeDefined();
    // The marker exists: the companion abandons, and no record is written.
    expect(await appendUserActivityWith({ table, clock }, client, entry(2), once, noWait)).toBeUndefined();
    expect(await verifyChain({ table }, client)).toEqual({ whole: true, count: 1 });
    // Racing appends with the same companion: exactly one commits its record and its write.
    table.items.delete(`${marker.pk}\u0000${marker.sk}`);
    const links = await Promise.all(
      Array.from({ length: 5 }, (_, index) => appendUserActivityWith({ table, clock }, client, entry(index), once, { ...noWait, random: Math.random })),
    );
    expect(links.filter((link) => link !== undefined)).toHaveLength(1);
    expect(await verifyChain({ table }, client)).toEqual({ whole: true, count: 2 });
  });

  it('sorts a record whose activity time is no time at the append time', async () => {
    const table = createMemoryTable();
    await appendUserActivity({ table, clock }, client, { ...entry(1), activity_time: 'yesterday' }, noWait);
    expect(recordAt(table, 1).gsi1sk).toMatch(/^2025-03-01T00:00:00\.000Z#/);
  });
});

describe('recordUserActivity', () => {
  it('never throws: a failure is logged with the request id', async () => {
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message: string, fields?: Record<string, unknown>) => void lines.push([message, fields]) };
    const table = createMemoryTable();
    table.get = async () => {
      throw new Error('table down');
    };
    const dependencies = { table, clock, logger } as unknown as Dependencies;
    await expect(recordUserActivity(dependencies, client, entry(1), { requestId: 'req-9' })).resolves.toBeUndefined();
    await expect(recordUserActivity(dependencies, 'Not A Client!', entry(1))).resolves.toBeUndefined();
    expect(lines[0]?.[0]).toBe('user activity not recorded');
    expect(lines[0]?.[1]).toMatchObject({ request_id: 'req-9', client, action: 'groups:Update' });
    expect(lines).toHaveLength(2);
  });
});

describe('verifyChain', () => {
  it('says an empty chain is whole', async () => {
    expect(await verifyChain({ table: createMemoryTable() }, client)).toEqual({ whole: true, count: 0 });
  });

  it('names an edited field, an added field and a removed field', async () => {
    for (const tamper of [
      (item: TableItem) => void (item.is_allowed = !item.is_allowed),
      (item: TableItem) => void (item.note = 'added'),
      (item: TableItem) => void delete item.user_id,
    ]) {
      const table = await chainOf(5);
      tamper(recordAt(table, 3));
      expect(await verifyChain({ table }, client)).toMatchObject({ whole: false, brokenAt: 3, reason: 'edited' });
    }
  });

  it('names a record rewritten with a recomputed hash at the next one', async () => {
    const table = await chainOf(5);
    const item = recordAt(table, 3);
    item.action = 'roles:Delete';
    item.hash = hashContent(contentOf(item));
    expect(await verifyChain({ table }, client)).toMatchObject({ whole: false, brokenAt: 4, reason: 'unlinked' });
  });

  it('names a deleted record, in the middle and at the end', async () => {
    const middle = await chainOf(5);
    middle.items.delete(`${recordAt(middle, 2).pk}\u0000${recordAt(middle, 2).sk}`);
    expect(await verifyChain({ table: middle }, client)).toMatchObject({ whole: false, brokenAt: 2, reason: 'missing' });
    const end = await chainOf(5);
    end.items.delete(`${recordAt(end, 5).pk}\u0000${recordAt(end, 5).sk}`);
    expect(await verifyChain({ table: end }, client)).toMatchObject({ whole: false, brokenAt: 5, reason: 'missing' });
  });

  it('names swapped records, a record copied from another tenant, and a head that disagrees', async () => {
    const swapped = await chainOf(4);
    const [two, three] = [recordAt(swapped, 2), recordAt(swapped, 3)];
    swapped.items.set(`${two.pk}\u0000${two.sk}`, { ...three, pk: two.pk, sk: two.sk });
    swapped.items.set(`${three.pk}\u0000${three.sk}`, { ...two, pk: three.pk, sk: three.sk });
    expect(await verifyChain({ table: swapped }, client)).toMatchObject({ whole: false, brokenAt: 2, reason: 'reordered' });

    const other = await chainOf(2);
    const foreign = createMemoryTable();
    await appendUserActivity({ table: foreign, clock }, 'demo', entry(1), noWait);
    const copied = [...foreign.items.values()].find((item) => item.sk.startsWith('SEQ#')) as TableItem;
    const first = recordAt(other, 1);
    other.items.set(`${first.pk}\u0000${first.sk}`, { ...copied, pk: first.pk, sk: first.sk });
    expect(await verifyChain({ table: other }, client)).toMatchObject({ whole: false, brokenAt: 1, reason: 'reordered' });

    const head = await chainOf(3);
    await head.update(keys.userActivity.head(client), { set: { hash: 'f'.repeat(64) } });
    expect(await verifyChain({ table: head }, client)).toMatchObject({ whole: false, brokenAt: 3, reason: 'head-mismatch' });
    await head.delete(keys.userActivity.head(client));
    expect(await verifyChain({ table: head }, client)).toMatchObject({ whole: false, reason: 'head-mismatch' });
  });

  it('streams long chains in pages', async () => {
    const table = await chainOf(1001);
    let queries = 0;
    const query = table.query.bind(table);
    table.query = async (spec) => {
      queries += 1;
      expect(spec.limit).toBeLessThanOrEqual(500);
      return query(spec);
    };
    expect(await verifyChain({ table }, client)).toEqual({ whole: true, count: 1001 });
    expect(queries).toBe(3);
  });
});
