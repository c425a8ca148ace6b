import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import type { TableItem } from '../ports/table-store.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { createCursorCodec } from './cursor.ts';
import { countItems, eachPage, fillPage, listPage, MAX_READ_FOR_TOTAL, MAX_READ_PER_PAGE, perItem, readAll } from './paging.ts';

const item = (n: number): TableItem => ({ pk: 'C#t#LIST', sk: `ITEM#${String(n).padStart(6, '0')}`, entity: 'Item', n });
const tableOf = (count: number) => createMemoryTable(Array.from({ length: count }, (_, n) => item(n)));
const query = { partition: 'C#t#LIST' };
const numberOf = (entry: TableItem) => entry.n as number;
const cursors = createCursorCodec('s'.repeat(32));

describe('fillPage', () => {
  it('unfiltered: a full page with a cursor to the rest, and none when the last item fills the page', async () => {
    const table = tableOf(5);
    const first = await fillPage(table, { query, startKey: undefined, limit: 3, keep: undefined, toData: numberOf });
    expect(first.data).toEqual([0, 1, 2]);
    const rest = await fillPage(table, { query, startKey: first.lastKey, limit: 2, keep: undefined, toData: numberOf });
    expect(rest).toEqual({ data: [3, 4], lastKey: undefined });
  });

  it('filtered, sync or async: fills across batches and leaves out what toData refuses', async () => {
    const table = tableOf(400);
    const everyTenth = (entry: TableItem) => numberOf(entry) % 10 === 0;
    const sync = await fillPage(table, { query, startKey: undefined, limit: 25, keep: perItem(everyTenth), toData: numberOf });
    expect(sync.data).toEqual(Array.from({ length: 25 }, (_, index) => index * 10));
    expect(sync.lastKey).toEqual({ pk: 'C#t#LIST', sk: 'ITEM#000240' });
    const asyncKeep = async (items: readonly TableItem[]) => items.filter(everyTenth);
    const skipping = (entry: TableItem) => (numberOf(entry) === 20 ? undefined : numberOf(entry));
    const page = await fillPage(table, { query, startKey: undefined, limit: 3, keep: asyncKeep, toData: skipping });
    expect(page.data).toEqual([0, 10, 30]);
  });

  it('filtered: its first batch reads the page and one more, so a filter that leaves nothing out reads no more than none', async () => {
    const table = tableOf(400);
    const read: number[] = [];
    const counting = { query: async (spec: Parameters<typeof table.query>[0]) => {
      const page = await table.query(spec);
      read.push(page.items.length);
      return page;
    } };
    const everything = perItem(() => true);
    const page = await fillPage(counting, { query, startKey: undefined, limit: 50, keep: everything, toData: numberOf });
    expect(page.data).toHaveLength(50);
    expect(page.lastKey).toEqual({ pk: 'C#t#LIST', sk: 'ITEM#000049' });
    expect(read).toEqual([51]);
    // A filter that leaves items out reads on by whole batches.
    read.length = 0;
    const half = await fillPage(counting, { query, startKey: undefined, limit: 50, keep: perItem((entry) => numberOf(entry) % 2 === 0), toData: numberOf });
    expect(half.data).toHaveLength(50);
    expect(read).toEqual([51, 100]);
  });

  it('stops after reading its budget: a short page whose cursor goes on where the reading stopped', async () => {
    const table = tableOf(MAX_READ_PER_PAGE + 200);
    const rare = perItem((entry) => numberOf(entry) === 5 || numberOf(entry) === MAX_READ_PER_PAGE + 150);
    const first = await fillPage(table, { query, startKey: undefined, limit: 10, keep: rare, toData: numberOf });
    expect(first.data).toEqual([5]);
    expect(first.lastKey).toBeDefined();
    const second = await fillPage(table, { query, startKey: first.lastKey, limit: 10, keep: rare, toData: numberOf });
    expect(second).toEqual({ data: [MAX_READ_PER_PAGE + 150], lastKey: undefined });
  });
});

describe('countItems', () => {
  it('counts what the filter keeps, and refuses past the reading budget', async () => {
    expect(await countItems(tableOf(250), query, perItem((entry) => numberOf(entry) < 100))).toBe(100);
    expect(await countItems(tableOf(250), query, undefined)).toBe(250);
    const ranged = { ...query, sort: { between: ['ITEM#', 'ITEM#~'] as [string, string] } };
    await expect(countItems(tableOf(MAX_READ_FOR_TOTAL + 1), ranged, undefined)).rejects.toMatchObject({
      lines: [`query.result_type: More than ${MAX_READ_FOR_TOTAL} records to count; narrow the time range`],
    });
  });
});

describe('listPage', () => {
  const deps = (count: number) => ({ table: tableOf(count), cursors });
  const spec = (page: { limit: number; result_type?: 'page' | 'total'; last_key?: string }) => ({
    client: 't',
    query,
    page,
    keep: perItem((entry) => numberOf(entry) % 3 === 0),
    toData: numberOf,
  });

  it('a total longer than any page budget is exact: every page is read, not the count so far', async () => {
    // 30,000 items: thirty Query pages while counting and thirty times what one page may read, 10,000 of them kept.
    const answer = await listPage(deps(30_000), spec({ limit: 50, result_type: 'total' }));
    expect(answer).toEqual({ count: 10_000 });
  });

  it('a total beyond the reading budget is refused with a 400 naming what to do, never answered short', async () => {
    const refused = listPage(deps(MAX_READ_FOR_TOTAL + 1), spec({ limit: 50, result_type: 'total' }));
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ lines: [`query.result_type: More than ${MAX_READ_FOR_TOTAL} records to count; narrow the filters`] });
  });

  it('pages with a cursor bound to the tenant, the Query, its order and its filters', async () => {
    const both = deps(20);
    const first = await listPage(both, spec({ limit: 3 }));
    expect(first).toMatchObject({ count: 3, data: [0, 3, 6] });
    const lastKey = 'last_key' in first ? first.last_key : undefined;
    expect(lastKey).toBeDefined();
    const next = await listPage(both, spec({ limit: 3, last_key: lastKey as string }));
    expect(next).toMatchObject({ count: 3, data: [9, 12, 15] });
    const page = { limit: 3, last_key: lastKey as string };
    await expect(listPage(both, { ...spec(page), client: 'other' })).rejects.toBeInstanceOf(ValidationError);
    await expect(listPage(both, { ...spec(page), filters: { state: 'a' } })).rejects.toBeInstanceOf(ValidationError);
    await expect(listPage(both, { ...spec(page), query: { ...query, descending: true } })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('eachPage', () => {
  it('walks every page in order, at most the page size each, and yields no empty page', async () => {
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const page of eachPage(tableOf(250), query, 100)) {
      sizes.push(page.length);
      seen.push(...page.map(numberOf));
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, n) => n));
    const empty: TableItem[][] = [];
    for await (const page of eachPage(tableOf(200), query, 100)) empty.push(page);
    expect(empty.map((page) => page.length)).toEqual([100, 100]);
  });
});

describe('readAll', () => {
  it('reads every page of a list', async () => {
    expect((await readAll(tableOf(2_500), query)).map(numberOf)).toEqual(Array.from({ length: 2_500 }, (_, n) => n));
  });
});
