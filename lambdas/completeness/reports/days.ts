import type { CompletenessDimension, CompletenessOutcome, LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { CompletenessRow } from '#shared/contract/entities/completeness.ts';
import type { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { describeQuery, type Page } from '#core/store/cursor.ts';
import { completenessCounterKeys, readCompletenessCounters, type CompletenessCountersItem } from '#core/store/entities/completeness-counters.ts';
import type { ListKey } from '#core/store/keys.ts';
import { eachPage, FILTER_BATCH, inScope, listPage, MAX_READ_FOR_TOTAL, type PageQuery, type QueryOf } from '#core/store/paging.ts';
import { withNames } from './names.ts';
import { dayRange, reportPeriod, type ReportPeriod } from './period.ts';
import { rowOf, rowShown, summedRow } from './rows.ts';
import { ledgerTypesOf } from './scope.ts';

export type CompletenessListQuery = QueryOf<typeof completenessEndpoints, 'client.completeness.list'>;
export type OwnDaysQuery = QueryOf<typeof completenessEndpoints, 'client.completeness.device'>;

type Answer = Page<CompletenessRow> | { count: number };

const nothing = (page: { result_type?: string }): Answer => (page.result_type === 'total' ? { count: 0 } : { count: 0, data: [] });

/** The partition of all rows of a cut, by day then (for every cut but the tenant's) by who the row is of. */
function cutList(client: string, by: CompletenessDimension): ListKey {
  switch (by) {
    case 'tenant':
      return completenessCounterKeys.listTenant(client);
    case 'group':
      return completenessCounterKeys.listGroups(client);
    case 'device_user':
      return completenessCounterKeys.listDeviceUsers(client);
    case 'device':
      return completenessCounterKeys.listDevices(client);
  }
}

/** What a report's rows are shaped by besides the partition: the caller's payload types and the filters. */
interface Shape {
  period: ReportPeriod;
  types: readonly LedgerPayloadType[];
  outcome?: CompletenessOutcome | undefined;
  group?: string | undefined;
}

/** The row of a counter item, when it is shown (counts something the caller sees; the outcome asked). */
function shownRow(item: TableItem, shape: Shape): CompletenessRow | undefined {
  const row = rowOf(readCompletenessCounters(item), shape.types);
  return rowShown(row, shape.outcome) ? row : undefined;
}

/**
 * A page of one partition of counter items, newest day first: one Query on the period's sort-key range; the `group`
 * filter, the caller's group scope (each row by the group label it carries) and the rows that show nothing are left
 * out while paging (core/store/paging.ts: a short page may still carry a cursor). `result_type=total` counts the
 * rows the pages show.
 */
async function rowsOfPartition(caller: TenantCaller, list: ListKey, shape: Shape, page: Pick<PageQuery, 'last_key' | 'limit'> & { result_type?: PageQuery['result_type'] | undefined }, filters: Record<string, string | undefined>): Promise<Answer> {
  const { deps, tenant: client } = caller;
  const spec = {
    client,
    query: { ...list, sort: { between: dayRange(shape.period) }, descending: true } satisfies QuerySpec,
    filters: { ...filters, group: shape.group, outcome: shape.outcome },
    page,
    keep: inScope(caller.groupScope(), (item) => (shape.group === undefined || item.group === shape.group) && shownRow(item, shape) !== undefined),
    toData: (item: TableItem) => shownRow(item, shape),
  };
  const result = await listPage(deps, spec);
  if (!('data' in result)) return result;
  return { ...result, data: await withNames(deps, client, result.data) };
}

/**
 * The tenant's days for a caller who sees only some groups (or who asked for one `group`): each day's row is the SUM
 * of the rows of the groups it may see, read from the groups' partition (one Query on the period's range, paged until
 * `limit` days are complete). An entry whose device had no group counts in no group row, so it is in the tenant's own
 * row only, which such a caller never reads. The cursor names the last day answered; the next page reads the days
 * before it. Bounded like a total: beyond MAX_READ_FOR_TOTAL group rows read it is a 400 asking for a shorter period.
 */
async function summedTenantDays(caller: TenantCaller, shape: Shape, page: CompletenessListQuery): Promise<Answer> {
  const { deps, tenant: client } = caller;
  const scope = caller.groupScope();
  const list = completenessCounterKeys.listGroups(client);
  const [lower, upper] = dayRange(shape.period);
  const binding = { client, query: describeQuery({ ...list, sort: { between: [lower, upper] } }, { by: 'tenant', group: shape.group, outcome: shape.outcome }) };
  // Group rows' keys are `<day>#<group>`: a bare `<day>` sorts before all of that day's rows, so it ends the range there.
  const before = page.last_key === undefined ? undefined : deps.cursors.decode(page.last_key, binding).day;
  const query: QuerySpec = { ...list, sort: { between: [lower, before ?? upper] }, descending: true };
  const counting = page.result_type === 'total';

  const rows: CompletenessRow[] = [];
  let count = 0;
  let day: string | undefined;
  let ofDay: CompletenessCountersItem[] = [];
  const closeDay = () => {
    if (day !== undefined) {
      const row = summedRow(day, ofDay, shape.types, shape.group);
      if (rowShown(row, shape.outcome)) {
        count += 1;
        if (!counting) rows.push(row);
      }
    }
    ofDay = [];
  };
  let read = 0;
  for await (const batch of eachPage(deps.table, query, FILTER_BATCH)) {
    read += batch.length;
    if (read > MAX_READ_FOR_TOTAL) throw new ValidationError([`query.from: More than ${MAX_READ_FOR_TOTAL} group rows in the period; narrow it`]);
    const visible = new Set(await scope.filter(shape.group === undefined ? batch : batch.filter((item) => item.group === shape.group)));
    for (const item of batch) {
      const itemDay = String(item.sk).slice(0, 10);
      if (itemDay !== day) {
        closeDay();
        // A full page, and a day after it: the rest is for the next page.
        if (!counting && rows.length === page.limit) return { count: rows.length, data: rows, last_key: deps.cursors.encode({ day: rows[rows.length - 1]?.day ?? itemDay }, binding) };
        day = itemDay;
      }
      if (visible.has(item)) ofDay.push(readCompletenessCounters(item));
    }
  }
  closeDay();
  return counting ? { count } : { count: rows.length, data: rows };
}

/**
 * `GET completeness`: rows per day of the cut `by` (tenant, group, device user, device), newest day first, over the
 * period (default the last 30 days; at most COMPLETENESS_PERIOD_DAYS_MAX days). Counts sum only the payload types the
 * caller may see (a caller who may see none gets no rows); rows of groups outside the caller's scope never appear,
 * device user and device rows are judged by the group label they carry, and a group-limited caller's tenant rows are
 * the sums of its groups' rows. `group` keeps one group's rows; `outcome` keeps the rows with at least one of it.
 */
export async function listCompleteness(caller: TenantCaller, query: CompletenessListQuery): Promise<Answer> {
  const { deps, tenant: client } = caller;
  const period = reportPeriod(query, deps.clock.now());
  const types = ledgerTypesOf(caller.payloadScope().types);
  if (types.length === 0) return nothing(query);
  const shape: Shape = { period, types, outcome: query.outcome, group: query.group };
  if (query.by === 'tenant' && (!caller.groupScope().unrestricted || query.group !== undefined)) return summedTenantDays(caller, shape, query);
  return rowsOfPartition(caller, cutList(client, query.by), shape, query, { by: query.by });
}

/**
 * One device's or one device user's days (its own partition), newest first: the caller asked `visible` first, so one
 * outside its groups answered as a missing one. Each row is still judged by the group label it carries, as the
 * tenant's report judges it.
 */
export async function listOwnDays(caller: TenantCaller, list: ListKey, query: OwnDaysQuery): Promise<Page<CompletenessRow>> {
  const period = reportPeriod(query, caller.deps.clock.now());
  const types = ledgerTypesOf(caller.payloadScope().types);
  if (types.length === 0) return { count: 0, data: [] };
  const answer = await rowsOfPartition(caller, list, { period, types }, { last_key: query.last_key, limit: query.limit }, {});
  if (!('data' in answer)) throw new Error('a device or device user report is a page');
  return answer;
}

export const ownDeviceDays = (client: string, deviceReference: string) => completenessCounterKeys.listDevice(client, deviceReference);
export const ownDeviceUserDays = (client: string, deviceUserReference: string) => completenessCounterKeys.listDeviceUser(client, deviceUserReference);
