import type { SupervisionReport } from '#shared/constants/supervision.ts';
import type { SupervisionReportResponse } from '#shared/contract/entities/supervision.ts';
import { ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { QuerySpec } from '#core/ports/table-store.ts';
import { readSupervisionItem, type SupervisionItemStored } from '#core/store/entities/supervision-item.ts';
import { keys } from '#core/store/keys.ts';
import { eachPage, MAX_READ_FOR_TOTAL } from '#core/store/paging.ts';
import { isoOf, timeRange } from '#core/store/time-range.ts';
import { outcomesReport, outstandingReport, reviewersReport } from './report-rows.ts';

const DAY_MS = 86_400_000;
/** A report's period when the caller gives none: the last 30 days. */
const DEFAULT_REPORT_DAYS = 30;

/** The period's key range: the one given, else the last 30 days up to now. */
function periodRange(period: { from?: string | undefined; to?: string | undefined }, now: Date): [string, string] {
  const given = timeRange(period.from, period.to);
  if (given !== undefined) return given;
  return [new Date(now.getTime() - DEFAULT_REPORT_DAYS * DAY_MS).toISOString(), `${now.toISOString()}~`];
}

/**
 * Every item of `query` the caller's scopes allow (payload types and groups, for `supervision:ReadReports`), page by
 * page. Bounded like a total: beyond MAX_READ_FOR_TOTAL items read it refuses with a 400 rather than report figures
 * that stop short.
 */
async function itemsInScope(caller: TenantCaller, query: QuerySpec): Promise<SupervisionItemStored[]> {
  const scope = caller.payloadScope();
  const items: SupervisionItemStored[] = [];
  let read = 0;
  for await (const page of eachPage(caller.deps.table, query)) {
    read += page.length;
    if (read > MAX_READ_FOR_TOTAL) throw new ValidationError([`query.from: More than ${MAX_READ_FOR_TOTAL} review items in the period; narrow it`]);
    // An item retention disposed of counts no more (its closed review is past its period).
    items.push(...(await scope.filter(page)).map(readSupervisionItem).filter((item) => item.retention_state === undefined));
  }
  return items;
}

/**
 * `GET supervision/reports/{report}`:
 * - outstanding: the items not closed now (the queue partition, whole); a period given narrows them to those raised in
 *   it (it is not defaulted: outstanding work older than 30 days is exactly what the report must show);
 * - outcomes: the items whose recording's time is in the period (default the last 30 days), as the queue's period is;
 * - reviewers: the items closed in the period (default the last 30 days), by closing time.
 */
export async function readReport(caller: TenantCaller, report: SupervisionReport, period: { from?: string | undefined; to?: string | undefined }): Promise<SupervisionReportResponse> {
  const { tenant } = caller;
  const now = caller.deps.clock.now();
  switch (report) {
    case 'outstanding': {
      const items = await itemsInScope(caller, keys.supervisionItem.outstanding(tenant));
      const from = period.from === undefined ? undefined : isoOf(period.from, 'start');
      const to = period.to === undefined ? undefined : isoOf(period.to, 'end');
      timeRange(period.from, period.to); // a `from` after `to` is a 400 here as in every list
      return outstandingReport(items.filter((item) => (from === undefined || item.raised_at >= from) && (to === undefined || item.raised_at <= to)), now);
    }
    case 'outcomes':
      return outcomesReport(await itemsInScope(caller, { ...keys.supervisionItem.byRecordingTime(tenant), sort: { between: periodRange(period, now) } }));
    case 'reviewers':
      return reviewersReport(await itemsInScope(caller, { ...keys.supervisionItem.closed(tenant), sort: { between: periodRange(period, now) } }));
  }
}
