import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request or one job invocation cost the table, in the units AWS bills: read and write capacity units as
 * DynamoDB reports them (`ReturnConsumedCapacity: 'TOTAL'`), and the items and bytes behind them. The table store
 * adapter adds every call it makes to the meter in scope; nothing else writes to it.
 */
export interface CapacityTotals {
  /** Read capacity units consumed (GetItem, Query, BatchGetItem). */
  readUnits: number;
  /** Write capacity units consumed (PutItem, UpdateItem, DeleteItem, TransactWriteItems; a transaction counts double). */
  writeUnits: number;
  /** Items DynamoDB evaluated for the reads (a Query's ScannedCount, a Get's one item, a BatchGet's found items). */
  itemsRead: number;
  /** Bytes of the items the reads returned (DynamoDB's own item size rule). */
  bytesRead: number;
  /** Items the writes wrote or deleted. */
  itemsWritten: number;
  /** Bytes of what the writes sent (a put's whole item, an update's values; a delete sends none). */
  bytesWritten: number;
  /** Calls to the table. */
  calls: number;
  /** Calls that failed (a refused condition, a throttle): they may have consumed capacity that DynamoDB does not report. */
  failedCalls: number;
}

/** One table call's part of the totals. */
export type CapacityUsage = Partial<CapacityTotals>;

const ZERO: CapacityTotals = { readUnits: 0, writeUnits: 0, itemsRead: 0, bytesRead: 0, itemsWritten: 0, bytesWritten: 0, calls: 0, failedCalls: 0 };

/**
 * Sums the usage of the table calls made while it is in scope. Meters nest: a meter started inside another (a job
 * run inside a bench's measurement, a request served inside a test's) adds each call to its parent too, so the
 * outer one sees everything the inner one saw.
 */
export class CapacityMeter {
  readonly #totals: CapacityTotals = { ...ZERO };
  readonly #parent: CapacityMeter | undefined;

  constructor(parent?: CapacityMeter) {
    this.#parent = parent;
  }

  record(usage: CapacityUsage): void {
    for (const [name, value] of Object.entries(usage) as Array<[keyof CapacityTotals, number | undefined]>) {
      if (value !== undefined) this.#totals[name] += value;
    }
    this.#parent?.record(usage);
  }

  /** The totals so far (a copy). */
  totals(): CapacityTotals {
    return { ...this.#totals };
  }
}

const scope = new AsyncLocalStorage<CapacityMeter>();

/** The meter of the request or job this code runs for; undefined outside any (a script, a test without one). */
export function currentCapacityMeter(): CapacityMeter | undefined {
  return scope.getStore();
}

/**
 * Runs `work` with a fresh meter in scope (nested under the current one, if any) and answers its result with what it
 * cost. The HTTP pipeline scopes one per request, the job dispatch one per job invocation, the capacity bench one per
 * measured call.
 */
export async function measureCapacity<T>(work: (meter: CapacityMeter) => Promise<T>): Promise<{ result: T; capacity: CapacityTotals }> {
  const meter = new CapacityMeter(currentCapacityMeter());
  const result = await scope.run(meter, () => work(meter));
  return { result, capacity: meter.totals() };
}

/** The totals rounded for a log line or a metric (DynamoDB reports halves and, for transactions, other fractions). */
export function roundedCapacity(totals: CapacityTotals): CapacityTotals {
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    readUnits: round(totals.readUnits),
    writeUnits: round(totals.writeUnits),
    itemsRead: totals.itemsRead,
    bytesRead: totals.bytesRead,
    itemsWritten: totals.itemsWritten,
    bytesWritten: totals.bytesWritten,
    calls: totals.calls,
    failedCalls: totals.failedCalls,
  };
}
