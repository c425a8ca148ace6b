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
  readonly #label: string | undefined;
  /** The part of the totals spent inside nested meters of each label (the route of a request, …). */
  readonly #byLabel = new Map<string, CapacityTotals>();

  constructor(parent?: CapacityMeter, label?: string) {
    this.#parent = parent;
    this.#label = label;
  }

  /** Adds one call's usage; `labels` are those of the nested meters it came through. */
  record(usage: CapacityUsage, labels: readonly string[] = []): void {
    add(this.#totals, usage);
    for (const label of labels) {
      let part = this.#byLabel.get(label);
      if (part === undefined) this.#byLabel.set(label, (part = { ...ZERO }));
      add(part, usage);
    }
    this.#parent?.record(usage, this.#label === undefined ? labels : [...labels, this.#label]);
  }

  /** The totals so far (a copy); with a label, the part spent inside nested meters of that label. */
  totals(label?: string): CapacityTotals {
    return { ...(label === undefined ? this.#totals : (this.#byLabel.get(label) ?? ZERO)) };
  }
}

function add(totals: CapacityTotals, usage: CapacityUsage): void {
  for (const [name, value] of Object.entries(usage) as Array<[keyof CapacityTotals, number | undefined]>) {
    if (value !== undefined) totals[name] += value;
  }
}

const scope = new AsyncLocalStorage<CapacityMeter>();

/** The label of an endpoint implementation's part of a request (the rest is authentication, authorization, activity). */
export const ROUTE_CAPACITY = 'route';

/** The meter of the request or job this code runs for; undefined outside any (a script, a test without one). */
export function currentCapacityMeter(): CapacityMeter | undefined {
  return scope.getStore();
}

/**
 * Runs `work` with a fresh meter in scope (nested under the current one, if any) and answers its result with what it
 * cost. The HTTP pipeline scopes one per request, the job dispatch one per job invocation, the capacity bench one per
 * measured call. A `label` names the part for the meters around it (`totals(label)`): the request's route
 * (ROUTE_CAPACITY) is told apart from the pipeline's own reads and writes around it that way.
 */
export async function measureCapacity<T>(work: (meter: CapacityMeter) => Promise<T>, label?: string): Promise<{ result: T; capacity: CapacityTotals }> {
  const meter = new CapacityMeter(currentCapacityMeter(), label);
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
