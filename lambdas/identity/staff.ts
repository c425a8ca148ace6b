import type { z } from 'zod';
import type { Staff } from '#shared/contract/entities/licences.ts';
import type { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { readPortalUser, toStaff } from '#core/store/entities/portal-user.ts';
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
  return deps.cursors.page(page, binding, (item) => toStaff(readPortalUser(item)));
}

