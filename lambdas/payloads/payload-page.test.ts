import { describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { payloadPage } from './payload-page.ts';

const client = 'demo';
const time = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString();
const items = Array.from({ length: 30 }, (_, n) => ({
  ...keys.payload.item(client, { payloadReference: `P${String(n).padStart(30, '0')}`, payloadTime: time(n), deviceReference: 'd1' }),
  n,
}));
const deps = { table: createMemoryTable(items), cursors: createCursorCodec('s'.repeat(32)) };
const list = keys.payload.listByDevice(client, 'd1');
const even = async (batch: readonly TableItem[]) => batch.filter((item) => (item.n as number) % 2 === 0);
const numberOf = (item: TableItem) => item.n as number;

describe('payloadPage', () => {
  it('pages a filtered list in either order without loss or repeat', async () => {
    for (const order of ['newest', 'oldest'] as const) {
      const seen: number[] = [];
      let last_key: string | undefined;
      do {
        const page = await payloadPage(deps, client, { list, range: undefined, order, query: { limit: 4, result_type: 'page', last_key }, filters: {}, keep: even, toData: numberOf });
        if (!('data' in page)) throw new Error('expected a page');
        seen.push(...page.data);
        last_key = page.last_key;
      } while (last_key !== undefined);
      const expected = items.map(numberOf).filter((n) => n % 2 === 0);
      expect(seen).toEqual(order === 'oldest' ? expected : expected.reverse());
    }
  });

  it('counts what the filter keeps, and refuses a cursor replayed with other filters', async () => {
    expect(await payloadPage(deps, client, { list, range: undefined, order: 'newest', query: { limit: 4, result_type: 'total' }, filters: {}, keep: even, toData: numberOf })).toEqual({ count: 15 });
    const first = await payloadPage(deps, client, { list, range: undefined, order: 'newest', query: { limit: 2, result_type: 'page' }, filters: { state: 'a' }, keep: even, toData: numberOf });
    if (!('data' in first) || first.last_key === undefined) throw new Error('expected a cursor');
    await expect(
      payloadPage(deps, client, { list, range: undefined, order: 'newest', query: { limit: 2, result_type: 'page', last_key: first.last_key }, filters: { state: 'b' }, keep: even, toData: numberOf }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      payloadPage(deps, client, { list, range: undefined, order: 'oldest', query: { limit: 2, result_type: 'page', last_key: first.last_key }, filters: { state: 'a' }, keep: even, toData: numberOf }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
