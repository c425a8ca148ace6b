import type { z } from 'zod';
import type { Staff } from '#shared/contract/entities/licences.ts';
import type { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import type { TableItem, TableStore } from '#core/ports/table-store.ts';
import { describeQuery, type CursorCodec, type Page } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';

/** The query of `GET /staff` (internal.staff.list), picked by id so a new endpoint in the group cannot shift it. */
type StaffQuery = z.output<Extract<(typeof identityEndpoints)[number], { id: 'internal.staff.list' }>['query']>;

/** Page size while counting for `result_type=total` (staff are few: a handful of pages at most). */
const COUNT_PAGE_SIZE = 100;

/**
 * Provider staff: the portal users of the provider's own client `admin`, one Query on their partition with the
 * signed cursor. `result_type=total` answers the count with no data.
 */
export async function listStaff(deps: { table: TableStore; cursors: CursorCodec }, query: StaffQuery): Promise<Page<Staff>> {
  const list = keys.portalUser.list(ADMIN_CLIENT);
  const binding = { client: ADMIN_CLIENT, query: describeQuery(list) };
  if (query.result_type === 'total') {
    let count = 0;
    let startKey: Record<string, string> | undefined;
    do {
      const page = await deps.table.query({ ...list, limit: COUNT_PAGE_SIZE, ...(startKey ? { startKey } : {}) });
      count += page.items.length;
      startKey = page.lastKey;
    } while (startKey !== undefined);
    return { count, data: [] };
  }
  const startKey = query.last_key === undefined ? undefined : deps.cursors.decode(query.last_key, binding);
  const page = await deps.table.query({ ...list, limit: query.limit, ...(startKey ? { startKey } : {}) });
  return deps.cursors.page(page, binding, toStaff);
}

/** A portal user item as a Staff entry; attributes of the wrong type are left out rather than failing the list. */
export function toStaff(item: TableItem): Staff {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const email = text(item.email);
  const lastSeen = text(item.last_seen);
  return {
    user_reference: text(item.user_reference) ?? '',
    ...(email === undefined ? {} : { email }),
    roles: Array.isArray(item.roles) ? item.roles.filter((role): role is string => typeof role === 'string') : [],
    ...(lastSeen === undefined ? {} : { last_seen: lastSeen }),
  };
}
