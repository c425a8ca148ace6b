import type { Staff } from '#shared/contract/entities/licences.ts';
import type { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { readPortalUser, toStaff } from '#core/store/entities/portal-user.ts';
import type { CursorCodec, Page } from '#core/store/cursor.ts';
import { keys } from '#core/store/keys.ts';
import { countItems, pageOf, type QueryOf } from '#core/store/paging.ts';

/** The query of `GET /staff` (internal.staff.list), picked by id so a new endpoint in the group cannot shift it. */
type StaffQuery = QueryOf<typeof identityEndpoints, 'internal.staff.list'>;

/**
 * Provider staff: the portal users of the provider's own client `admin`, one Query on their partition with the
 * signed cursor. `result_type=total` answers the exact count with no data (the contract's answer is a page).
 */
export async function listStaff(deps: { table: TableStore; cursors: CursorCodec }, query: StaffQuery): Promise<Page<Staff>> {
  const list = keys.portalUser.list(ADMIN_CLIENT);
  if (query.result_type === 'total') return { count: await countItems(deps.table, list), data: [] };
  return pageOf(deps, { client: ADMIN_CLIENT, query: list, page: query, toData: (item) => toStaff(readPortalUser(item)) });
}

