import { describe, expect, it } from 'vitest';
import { HttpError } from '#core/errors.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { createCursorCodec } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { readPortalUser, toStaff } from '#core/store/entities/portal-user.ts';
import { listStaff } from './staff.ts';

const cursors = createCursorCodec('x'.repeat(40));
const staffItem = (n: number): TableItem => ({
  ...keys.portalUser.item('admin', `staff-${n}`),
  user_reference: `staff-${n}`,
  email: `s${n}@verity.test`,
  roles: ['staff'],
});
const tenantUser: TableItem = { ...keys.portalUser.item('demo', 'demo-admin'), user_reference: 'demo-admin', roles: ['admin'] };

const page = { limit: 2, result_type: 'page' as const };

describe('listStaff', () => {
  it('pages through the staff partition only, with a signed cursor', async () => {
    const table = createMemoryTable([staffItem(1), staffItem(2), staffItem(3), tenantUser]);
    const first = await listStaff({ table, cursors }, page);
    expect(first.data.map((staff) => staff.user_reference)).toEqual(['staff-1', 'staff-2']);
    expect(first.count).toBe(2);
    expect(first.last_key).toBeTypeOf('string');
    const second = await listStaff({ table, cursors }, { ...page, last_key: first.last_key });
    expect(second).toEqual({ count: 1, data: [{ user_reference: 'staff-3', email: 's3@verity.test', roles: ['staff'] }] });
    expect(table.queries.every((query) => query.partition === keys.portalUser.list('admin').partition)).toBe(true);
  });

  it('refuses a forged cursor, or one minted for another list, with 400', async () => {
    const table = createMemoryTable([staffItem(1)]);
    const foreign = cursors.encode({ pk: tenantUser.pk, sk: tenantUser.sk }, { client: 'demo', query: 'x' });
    for (const last_key of ['garbage', foreign, `${foreign}x`]) {
      const error = await listStaff({ table, cursors }, { ...page, last_key }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(400);
    }
    expect(table.queries).toEqual([]);
  });

  it('counts every staff member for result_type=total', async () => {
    const table = createMemoryTable(Array.from({ length: 5 }, (_, n) => staffItem(n)));
    expect(await listStaff({ table, cursors }, { limit: 2, result_type: 'total' })).toEqual({ count: 5, data: [] });
  });

  it('drops attributes of the wrong type instead of failing the list', () => {
    expect(toStaff(readPortalUser({ pk: 'p', sk: 's', entity: 'PortalUser', user_reference: 'u', email: 7, roles: ['a', 3], last_seen: null }))).toEqual({
      user_reference: 'u',
      roles: ['a'],
    });
  });
});
