import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type TableItem, type UpdateSpec, type WriteCondition } from '#core/ports/table-store.ts';
import { payloadItemSchema, processedIndexKeys, threadIndexKeys } from '#core/store/entities/payload.ts';
import { claimItem } from '#core/store/entities/read-item.ts';
import { keys } from '#core/store/keys.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { backfillClients, markBackfilled } from './backfill-marks.ts';

/**
 * The `processed-index-backfill` job (`npm run job -- processed-index-backfill [--client <c>]`): gives the Processed
 * payloads written before the byProcessedAt index their keys, and the messages with a thread written before the
 * byThread index theirs, then marks each tenant it walked whole as indexed for both (the account's
 * `processed_indexed_at` and `thread_indexed_at`, entities/account.ts), from which point transfers of that tenant read
 * their window from the index (lambdas/transfers/job/selection.ts) instead of the tenant's whole list, and an SMS
 * thread reads its own messages (lambdas/payloads/payload-lists.ts) instead of its device's.
 *
 * Per tenant (every tenant of the account list, or the one named), it walks the payload list by Query (gsi1, never a
 * Scan), a page at a time, and sets the keys where a Processed payload lacks them or holds others, by an update
 * conditional on the state, processing time and thread it read; it removes them from a payload that holds them but is
 * no longer Processed (the thread keys likewise follow the message's thread). A payload changed meanwhile fails its condition and is left to the write that changed it (which
 * writes or removes the keys itself). After JOB_RUN_MS it starts itself again with its position in its input. Run
 * twice, it writes nothing. Run it once the code that writes the keys is deployed everywhere: a payload processed by
 * older code after the walk passed it would not be indexed.
 */

export const PROCESSED_INDEX_BACKFILL_JOB = 'processed-index-backfill';
/** Payloads read per Query page. */
const PAGE = 100;
/** A run stops after 4 minutes (the jobs function may run 5) and starts itself again where it stopped. */
const JOB_RUN_MS = 4 * 60_000;
/** Updates in flight at once. */
const PARALLEL = 10;

export const ProcessedIndexBackfillInput = z.object({
  /** Only this tenant; absent: every tenant, in account-list order. */
  client: ClientId.optional(),
  /** The tenant the last run stopped in, and its position in that tenant's payload list. */
  at: ClientId.optional(),
  start_key: z.record(z.string(), z.string()).optional(),
  /** The last tenant the last run finished (it stopped between two tenants). */
  after: ClientId.optional(),
  /** Totals of the earlier runs of this backfill (reported). */
  indexed: z.int().min(0).default(0),
  unindexed: z.int().min(0).default(0),
  threaded: z.int().min(0).default(0),
  tenants: z.int().min(0).default(0),
});
export type ProcessedIndexBackfillInput = z.infer<typeof ProcessedIndexBackfillInput>;

export type ProcessedIndexBackfillDependencies = Pick<Dependencies, 'table' | 'clock' | 'jobs'>;

/** Budget of one run: a deadline, or (tests) a number of pages. */
export interface BackfillBudget {
  until?: Date;
  pages?: number;
}

/** What the backfill reads of a payload: nothing else of it can fail the walk. */
const IndexedFacts = payloadItemSchema().pick({
  payload_reference: true,
  payload_state: true,
  processed_at: true,
  payload_type: true,
  device_reference: true,
  payload_time: true,
  thread_id: true,
});

export async function processedIndexBackfillJob(
  deps: ProcessedIndexBackfillDependencies,
  rawInput: Record<string, unknown>,
  budget: BackfillBudget = { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) },
): Promise<Record<string, unknown>> {
  const input = ProcessedIndexBackfillInput.parse(rawInput);
  const totals = { indexed: input.indexed, unindexed: input.unindexed, threaded: input.threaded, tenants: input.tenants };
  let pages = 0;
  const spent = () => (budget.pages !== undefined && pages >= budget.pages) || (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
  const clients = backfillClients(deps, input.client);
  // What the next run is given besides its position: the tenant named, and the totals so far.
  const next = () => ({ ...(input.client === undefined ? {} : { client: input.client }), ...totals });
  for await (const client of clients) {
    // Tenants before the one the last run stopped in are done (the account list is in client order).
    if ((input.at !== undefined && client < input.at) || (input.after !== undefined && client <= input.after)) continue;
    let startKey = client === input.at ? input.start_key : undefined;
    do {
      const page = await deps.table.query({ ...keys.payload.list(client), limit: PAGE, ...(startKey === undefined ? {} : { startKey }) });
      const changes = page.items.flatMap((item) => {
        const change = indexChange(client, item);
        return change === undefined ? [] : [change];
      });
      for (let start = 0; start < changes.length; start += PARALLEL) {
        const done = await Promise.all(changes.slice(start, start + PARALLEL).map(async (change) => ((await applied(deps, change)) ? change : undefined)));
        totals.indexed += done.filter((change) => change?.processed === 'indexed').length;
        totals.unindexed += done.filter((change) => change?.processed === 'unindexed').length;
        totals.threaded += done.filter((change) => change?.threaded === true).length;
      }
      startKey = page.lastKey;
      pages += 1;
      if (startKey !== undefined && spent()) {
        await deps.jobs.start(PROCESSED_INDEX_BACKFILL_JOB, { ...next(), at: client, start_key: startKey });
        return { outcome: 'more', ...totals, at: client };
      }
    } while (startKey !== undefined);
    await markBackfilled(deps, client, 'processed_indexed_at');
    await markBackfilled(deps, client, 'thread_indexed_at');
    totals.tenants += 1;
    // Between tenants too: many small tenants must not keep one run past its budget either.
    if (input.client === undefined && spent()) {
      await deps.jobs.start(PROCESSED_INDEX_BACKFILL_JOB, { ...next(), after: client });
      return { outcome: 'more', ...totals, after: client };
    }
  }
  return { outcome: 'done', ...totals };
}

interface IndexChange {
  /** What the change does to the byProcessedAt keys, if anything; whether it moves the message onto its thread. */
  processed?: 'indexed' | 'unindexed';
  threaded: boolean;
  item: TableItem;
  update: UpdateSpec;
  condition: WriteCondition;
}

/** The names and values that hold the facts as read, for the condition of the change. */
function asReadCondition(facts: z.infer<typeof IndexedFacts>): WriteCondition {
  const parts = [
    '#state = :state',
    facts.processed_at === undefined ? 'attribute_not_exists(#at)' : '#at = :at',
    facts.thread_id === undefined ? 'attribute_not_exists(#thread)' : '#thread = :thread',
  ];
  return {
    kind: 'expression',
    expression: parts.join(' AND '),
    names: { '#state': 'payload_state', '#at': 'processed_at', '#thread': 'thread_id' },
    values: {
      ':state': facts.payload_state,
      ...(facts.processed_at === undefined ? {} : { ':at': facts.processed_at }),
      ...(facts.thread_id === undefined ? {} : { ':thread': facts.thread_id }),
    },
  };
}

/** The write that brings one payload's byProcessedAt and byThread keys to its state, or undefined when they are right. */
function indexChange(client: string, item: TableItem): IndexChange | undefined {
  const facts = claimItem(IndexedFacts, item);
  // A payload that does not read is left as it is: processing never made it Processed through this schema either.
  if (facts === undefined) return undefined;
  const wanted: Record<string, string> = { ...processedIndexKeys(client, facts), ...threadIndexKeys(client, facts) };
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const attribute of [...keys.payload.processedKeyAttributes, ...keys.payload.threadKeyAttributes]) {
    const want = wanted[attribute];
    if (want !== undefined && item[attribute] !== want) set[attribute] = want;
    if (want === undefined && item[attribute] !== undefined) remove.push(attribute);
  }
  if (Object.keys(set).length === 0 && remove.length === 0) return undefined;
  const touches = (attributes: readonly string[]) => attributes.some((attribute) => attribute in set || remove.includes(attribute));
  const processed = !touches(keys.payload.processedKeyAttributes) ? undefined : wanted[keys.payload.processedKeyAttributes[0] as string] === undefined ? 'unindexed' : 'indexed';
  return {
    ...(processed === undefined ? {} : { processed }),
    threaded: touches(keys.payload.threadKeyAttributes),
    item,
    update: { ...(Object.keys(set).length === 0 ? {} : { set }), ...(remove.length === 0 ? {} : { remove }) },
    condition: asReadCondition(facts),
  };
}

/** Applies a change; false when the payload changed since it was read (that write placed it itself). */
async function applied(deps: ProcessedIndexBackfillDependencies, change: IndexChange): Promise<boolean> {
  try {
    await deps.table.update({ pk: change.item.pk, sk: change.item.sk }, change.update, { condition: change.condition });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
