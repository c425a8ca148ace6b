import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TableItem } from '#core/ports/table-store.ts';
import { readDevice } from '#core/store/entities/device.ts';
import { keys } from '#core/store/keys.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { backfillClients, markBackfilled } from './backfill-marks.ts';

/**
 * The `telemetry-index-backfill` job (`npm run job -- telemetry-index-backfill [--client <c>]`): puts the latest
 * telemetry report each device stored before the tenant's latest-reports index (entities/telemetry.ts) on it, then
 * marks each tenant it walked whole (the account's `telemetry_indexed_at`), from which point `GET telemetry` Queries
 * the index instead of reading the whole fleet (lambdas/device-data/reads.ts).
 *
 * Per tenant (every tenant of the account list, or the one named) it walks the device list by Query (never a Scan), a
 * page at a time, reads those devices' latest reports in one BatchGet and sets the index keys on each report that
 * lacks them, conditional on the report still existing (an upload meanwhile rewrote it with its keys: setting the same
 * keys again changes nothing). After JOB_RUN_MS it starts itself again with its position. Run twice, it writes
 * nothing. Run it once the code that writes the keys is deployed everywhere.
 */

export const TELEMETRY_INDEX_BACKFILL_JOB = 'telemetry-index-backfill';
/** Devices read per Query page (one BatchGet of their reports). */
const PAGE = 100;
/** A run stops after 4 minutes (the jobs function may run 5) and starts itself again where it stopped. */
const JOB_RUN_MS = 4 * 60_000;

export const TelemetryIndexBackfillInput = z.object({
  /** Only this tenant; absent: every tenant, in account-list order. */
  client: ClientId.optional(),
  /** The tenant the last run stopped in, and its position in that tenant's device list. */
  at: ClientId.optional(),
  start_key: z.record(z.string(), z.string()).optional(),
  /** The last tenant the last run finished (it stopped between two tenants). */
  after: ClientId.optional(),
  /** Totals of the earlier runs (reported). */
  indexed: z.int().min(0).default(0),
  tenants: z.int().min(0).default(0),
});

export type TelemetryIndexBackfillDependencies = Pick<Dependencies, 'table' | 'clock' | 'jobs'>;

/** Budget of one run: a deadline, or (tests) a number of pages. */
export interface TelemetryBackfillBudget {
  until?: Date;
  pages?: number;
}

export async function telemetryIndexBackfillJob(
  deps: TelemetryIndexBackfillDependencies,
  rawInput: Record<string, unknown>,
  budget: TelemetryBackfillBudget = { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) },
): Promise<Record<string, unknown>> {
  const input = TelemetryIndexBackfillInput.parse(rawInput);
  const totals = { indexed: input.indexed, tenants: input.tenants };
  let pages = 0;
  const spent = () => (budget.pages !== undefined && pages >= budget.pages) || (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
  const clients = backfillClients(deps, input.client);
  const next = () => ({ ...(input.client === undefined ? {} : { client: input.client }), ...totals });
  for await (const client of clients) {
    // Tenants before the one the last run stopped in are done (the account list is in client order).
    if ((input.at !== undefined && client < input.at) || (input.after !== undefined && client <= input.after)) continue;
    let startKey = client === input.at ? input.start_key : undefined;
    do {
      const page = await deps.table.query({ ...keys.device.list(client), limit: PAGE, ...(startKey === undefined ? {} : { startKey }) });
      totals.indexed += await indexLatestReports(deps, client, page.items);
      startKey = page.lastKey;
      pages += 1;
      if (startKey !== undefined && spent()) {
        await deps.jobs.start(TELEMETRY_INDEX_BACKFILL_JOB, { ...next(), at: client, start_key: startKey });
        return { outcome: 'more', ...totals, at: client };
      }
    } while (startKey !== undefined);
    await markBackfilled(deps, client, 'telemetry_indexed_at');
    totals.tenants += 1;
    if (input.client === undefined && spent()) {
      await deps.jobs.start(TELEMETRY_INDEX_BACKFILL_JOB, { ...next(), after: client });
      return { outcome: 'more', ...totals, after: client };
    }
  }
  return { outcome: 'done', ...totals };
}

/** Puts the latest report of each of `devices` that lacks its index keys on the index; answers how many it put. */
async function indexLatestReports(deps: TelemetryIndexBackfillDependencies, client: string, devices: readonly TableItem[]): Promise<number> {
  const references = devices.map((device) => readDevice(device).device_reference);
  const reports = await deps.table.batchGet(references.map((reference) => keys.telemetry.latest(client, reference)));
  let indexed = 0;
  for (const report of reports) {
    const reference = references.find((candidate) => keys.telemetry.latest(client, candidate).pk === report.pk);
    if (reference === undefined) continue;
    const { pk: _pk, sk: _sk, entity: _entity, ...indexKeys } = keys.telemetry.latest(client, reference);
    if (Object.entries(indexKeys).every(([name, value]) => report[name] === value)) continue;
    try {
      await deps.table.update({ pk: report.pk, sk: report.sk }, { set: indexKeys }, { condition: { kind: 'item-exists' } });
      indexed += 1;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  return indexed;
}
