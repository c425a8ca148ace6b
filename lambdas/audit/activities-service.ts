import { actionsOfKind } from '#shared/contract/action-wording.ts';
import type { UserActivity } from '#shared/contract/entities/activity.ts';
import { readAuditDisposedCount } from '#core/store/entities/audit-chain.ts';
import { claimedUserActivity, toUserActivity } from '#core/store/entities/user-activity.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import { allOf, listPage, notDeletedByRetention, perItem, type QueryOf } from '#core/store/paging.ts';
import type { auditEndpoints } from '#shared/contract/endpoints/audit.ts';
import { keys, type ActivityTrail } from '#core/store/keys.ts';
import { listDeviceActivities } from '../device-data/public.ts';
import { trailState } from './trail/chain-state.ts';
import { timeRange } from '#core/store/time-range.ts';

/** The query of `GET activities`, as the contract parses it. */
export type ActivityQuery = QueryOf<typeof auditEndpoints, 'admin.activities.list'>;

function matcher(query: ActivityQuery): ((item: TableItem) => boolean) | undefined {
  const { action, kind, is_allowed: isAllowed } = query;
  if (action === undefined && kind === undefined && isAllowed === undefined) return undefined;
  const ofKind = kind === undefined ? undefined : new Set(actionsOfKind(kind));
  return (item) => {
    const activity = claimedUserActivity(item);
    // An unreadable record goes on to the mapping, which logs it and leaves it out.
    if (activity === undefined) return true;
    return (
      (action === undefined || activity.action === action) &&
      (ofKind === undefined || ofKind.has(activity.action)) &&
      (isAllowed === undefined || activity.is_allowed === isAllowed)
    );
  };
}

/**
 * How many records one trail's list shows when nothing narrows it, without reading them: the linked records (the
 * chain head's sequence) plus those still on the pending index, less those retention disposed of (deleted, or
 * destroyed into a stub that keeps its place in the chain), which every list leaves out. The disposed count is moved
 * in each disposal's own transaction (retention/record-changes/activity.ts), on an item of its own, so the sequencer
 * and the calls never meet it.
 */
export async function trailTotal(deps: Pick<Dependencies, 'table'>, trail: ActivityTrail, client: string): Promise<number> {
  const { entity: _tag, ...counter } = keys.activityChain.disposedCount(trail, client);
  const [state, disposed] = await Promise.all([trailState(deps, trail, client), deps.table.get(counter)]);
  const count = state.linked_count + state.pending_count - (disposed === undefined ? 0 : readAuditDisposedCount(disposed).disposed_count);
  return Math.max(0, count);
}

/**
 * `GET activities`: the tenant's user activity, newest first, as the contract's UserActivity (chain fields left out).
 *
 * A Query on the tenant's time index (gsi1 of `keys.userActivity.list`), or with `user_id` on that person's own index
 * (gsi3 of `keys.userActivity.listByUser`, written with each record): the `from`/`to` range is a key condition on the
 * ISO time prefix of the sort key. `action`, `kind` (reads or changes, by the action's wording in the contract) and
 * `is_allowed` filter while paging (the table port has no FilterExpression, so the service does what one would, with
 * the same cost model: items read, not items returned).
 * Pages fill up to `limit`, reading at most 1,000 items per request; a page may then be short, with a cursor to go on.
 * The cursor is the signed key of the last item read, bound to the tenant and to these exact filters.
 *
 * `result_type=total` counts: when nothing narrows the list, `trailTotal`; else by reading the matching range (exact,
 * or refused with a 400 beyond core/store/paging.ts's reading budget). Records are listed as soon as their call wrote
 * them, linked or not; records retention deleted are left out (a destroyed one's stub has no list keys).
 */
export async function listActivities(caller: TenantCaller, query: ActivityQuery): Promise<Page<UserActivity> | { count: number }> {
  const { deps: dependencies, tenant: client } = caller;
  const { table, logger } = dependencies;
  // One person's records are a Query on their own index (gsi3, the same time-ordered sort key), not a filter of all.
  const list = query.user_id === undefined ? keys.userActivity.list(client) : keys.userActivity.listByUser(client, query.user_id);
  const range = timeRange(query.from, query.to);
  const matches = matcher(query);
  const sort = range === undefined ? {} : { sort: { between: range } };

  if (query.result_type === 'total' && range === undefined && matches === undefined && query.user_id === undefined) {
    return { count: await trailTotal({ table }, 'user', client) };
  }
  return listPage(dependencies, {
    client,
    query: { ...list, ...sort, descending: true },
    filters: { from: query.from, to: query.to, user_id: query.user_id, action: query.action, kind: query.kind, is_allowed: query.is_allowed },
    page: query,
    keep: perItem(allOf(notDeletedByRetention, matches)),
    toData: (item) => {
      const activity = claimedUserActivity(item);
      if (activity !== undefined) return toUserActivity(activity);
      // A record the contract cannot read is kept out of the page, not hidden: verifyChain reports it.
      logger.warn('activity record unreadable', { client, record: item.sk });
      return undefined;
    },
  });
}

/** The query of `GET device_activities`, as the contract parses it. */
export type DeviceActivityQuery = QueryOf<typeof auditEndpoints, 'admin.device-activities.list'>;

/**
 * `GET device_activities` (device-data/reads.ts lists the records). A total that nothing narrows, asked by a caller who
 * sees every group, is the trail's own count (`trailTotal`), not a read of every record; any filter, time range or
 * group condition counts by reading what the list would show.
 */
export async function listDeviceActivityTrail(caller: TenantCaller, query: DeviceActivityQuery): Promise<Awaited<ReturnType<typeof listDeviceActivities>>> {
  const { deps, tenant: client } = caller;
  const scope = caller.groupScope();
  const narrowed = [query.from, query.to, query.device_reference, query.device_user_reference, query.group, query.is_allowed].some((value) => value !== undefined);
  if (query.result_type === 'total' && !narrowed && scope.unrestricted) return { count: await trailTotal(deps, 'device', client) };
  return listDeviceActivities(caller, query);
}
