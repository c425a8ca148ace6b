import { ulid } from 'ulid';
import type { Dependencies } from '#core/dependencies.ts';
import type { TransactOperation } from '#core/ports/table-store.ts';
import { dashboardCounterOperations, deviceCounterChanges, mergeDashboardChanges } from '../../../lambdas/metrics/dashboard-counters.ts';
import { keys } from '#core/store/keys.ts';

/** Items of one transaction (the limit is 100), and how many transactions are written at once. */
const TRANSACTION_ITEMS = 99;
const PARALLEL_WRITES = 4;

export interface SyntheticFleetOptions {
  /** `updated_by` of every device: who wrote them (`bench`, `e2e`). */
  writer: string;
  /** Every n-th device is deactivated; none when absent. */
  deactivateEvery?: number;
}

/** One synthetic activated device of `client` (no holder), versions spread so the dashboard charts have bars. */
function syntheticDevice(client: string, index: number, now: string, options: SyntheticFleetOptions) {
  const reference = ulid();
  return {
    ...keys.device.item(client, reference),
    client,
    device_reference: reference,
    services: ['calls'],
    imeis: [String(350_000_000_000_000 + index)],
    model: 'Pixel 8',
    is_deactivated: options.deactivateEvery !== undefined && index % options.deactivateEvery === 0,
    is_legacy: false,
    activated_at: now,
    app_version: index % 3 === 0 ? '5.1.3' : '5.2.0',
    os_version: index % 2 === 0 ? '14' : '13',
    updated_at: now,
    updated_by: options.writer,
  };
}

/**
 * Writes `count` synthetic devices of `client` straight into the table, as fleets too large to enrol through the
 * simulator (the bench's 20,000, the browser tests' extra page): the services' key builders, in transactions, then
 * the tenant's dashboard counters moved by their sum (one ADD per counter).
 */
export async function writeSyntheticFleet(deps: Pick<Dependencies, 'table'>, client: string, count: number, options: SyntheticFleetOptions): Promise<void> {
  const now = new Date().toISOString();
  const items = Array.from({ length: count }, (_, index) => syntheticDevice(client, index, now, options));
  const batches: TransactOperation[][] = [];
  for (let start = 0; start < items.length; start += TRANSACTION_ITEMS) {
    batches.push(items.slice(start, start + TRANSACTION_ITEMS).map((item) => ({ kind: 'put', item })));
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_WRITES }, async () => {
      while (next < batches.length) await deps.table.transactWrite(batches[next++] as TransactOperation[]);
    }),
  );
  await deps.table.transactWrite(dashboardCounterOperations(client, mergeDashboardChanges(...items.map((item) => deviceCounterChanges(undefined, item)))));
}
