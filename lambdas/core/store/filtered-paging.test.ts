import { describe, expect, it } from 'vitest';
import type { TableItem } from '../ports/table-store.ts';
import { createMemoryTable } from '../testing/memory-table.ts';
import { collectFilteredPage, countFiltered, MAX_EVALUATED_FOR_TOTAL, MAX_EVALUATED_PER_PAGE, perItem } from './filtered-paging.ts';

const item = (n: number): TableItem => ({ pk: 'C#t#LIST', sk: `ITEM#${String(n).padStart(6, '0')}`, entity: 'Item', n });
const tableOf = (count: number) => createMemoryTable(Array.from({ length: count }, (_, n) => item(n)));
const query = { partition: 'C#t#LIST' };
const numberOf = (entry: TableItem) => entry.n as number;

describe('collectFilteredPage', () => {
  it('unfiltered: a full page with a cursor to the rest, and none when the last item fills the page', async () => {
    const table = tableOf(5);
    const first = await collectFilteredPage(table, { query, startKey: undefined, limit: 3, keep: undefined, toData: numberOf });
    expect(first.data).toEqual([0, 1, 2]);
    const rest = await collectFilteredPage(table, { query, startKey: first.lastKey, limit: 2, keep: undefined, toData: numberOf });
    expect(rest).toEqual({ data: [3, 4], lastKey: undefined });
  });

  it('filtered, sync or async: fills across batches and leaves out what toData refuses', async () => {
    const table = tableOf(400);
    const everyTenth = (entry: TableItem) => numberOf(entry) % 10 === 0;
    const sync = await collectFilteredPage(table, { query, startKey: undefined, limit: 25, keep: perItem(everyTenth), toData: numberOf });
    expect(sync.data).toEqual(Array.from({ length: 25 }, (_, index) => index * 10));
    expect(sync.lastKey).toEqual({ pk: 'C#t#LIST', sk: 'ITEM#000240' });
    const asyncKeep = async (items: readonly TableItem[]) => items.filter(everyTenth);
    const skipping = (entry: TableItem) => (numberOf(entry) === 20 ? undefined : numberOf(entry));
    const page = await collectFilteredPage(table, { query, startKey: undefined, limit: 3, keep: asyncKeep, toData: skipping });
    expect(page.data).toEqual([0, 10, 30]);
  });

  it('stops after reading its budget: a short page whose cursor goes on where the reading stopped', async () => {
    const table = tableOf(MAX_EVALUATED_PER_PAGE + 200);
    const rare = perItem((entry) => numberOf(entry) === 5 || numberOf(entry) === MAX_EVALUATED_PER_PAGE + 150);
    const first = await collectFilteredPage(table, { query, startKey: undefined, limit: 10, keep: rare, toData: numberOf });
    expect(first.data).toEqual([5]);
    expect(first.lastKey).toBeDefined();
    const second = await collectFilteredPage(table, { query, startKey: first.lastKey, limit: 10, keep: rare, toData: numberOf });
    expect(second).toEqual({ data: [MAX_EVALUATED_PER_PAGE + 150], lastKey: undefined });
  });
});

describe('countFiltered', () => {
  it('counts what the filter keeps, and refuses past the reading budget', async () => {
    expect(await countFiltered(tableOf(250), query, perItem((entry) => numberOf(entry) < 100))).toBe(100);
    expect(await countFiltered(tableOf(250), query, undefined)).toBe(250);
    await expect(countFiltered(tableOf(MAX_EVALUATED_FOR_TOTAL + 1), query, undefined)).rejects.toMatchObject({
      lines: [`query.result_type: More than ${MAX_EVALUATED_FOR_TOTAL} records to count; narrow the time range`],
    });
  });
});
