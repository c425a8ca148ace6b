import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type QuerySpec, type TableItem } from '#core/ports/table-store.ts';
import { keys, type ListKey } from '#core/store/keys.ts';
import { readRetainedItem } from '#core/store/entities/retained-item.ts';
import { readRetentionIndexed, retentionIndexedToItem } from '#core/store/entities/retention-indexed.ts';
import { LEDGER_OUTCOMES } from '#shared/constants/completeness.ts';
import { dueMarkerItems } from './due-index.ts';

/**
 * Due markers for records written without them (demo data, items from before the due index, and the audit trails),
 * by Query over the lists those records already sit in, never by Scan. A marker is put only where none exists, so a
 * record already deleted keeps its marker in the stage it is in, and running this twice changes nothing.
 */

type IndexDependencies = Pick<Dependencies, 'table' | 'clock'>;

/** Conditional puts in flight at once. */
const PARALLEL_PUTS = 25;

/** The lists a one-off backfill walks, one per retained entity. */
export function backfillLists(client: string): Array<{ name: string; list: ListKey }> {
  return [
    { name: 'payloads', list: keys.payload.list(client) },
    { name: 'gps', list: keys.gps.byTenant(client) },
    { name: 'device_logs', list: keys.deviceLog.byTenant(client) },
    { name: 'alerts', list: keys.alert.list(client) },
    { name: 'user_activity', list: keys.userActivity.list(client) },
    { name: 'device_activity', list: keys.deviceActivity.list(client) },
    // Records with a life of their own: only the ended ones get a marker (due-index.ts).
    { name: 'support_access', list: keys.supportAccess.list(client) },
    { name: 'legal_holds', list: keys.legalHold.list(client) },
    { name: 'transfers', list: keys.transfer.list(client) },
    { name: 'migrations', list: keys.migration.all(client) },
    { name: 'device_users', list: keys.deviceUser.list(client) },
    // Closed review items only: an outstanding one has not ended.
    { name: 'supervision_items', list: keys.supervisionItem.closed(client) },
    // Ledger entries, through the tenant's lists by outcome (together every entry not deleted).
    ...LEDGER_OUTCOMES.map((outcome) => ({ name: `ledger_entries_${outcome}`, list: keys.ledgerEntry.listByOutcome(client, outcome) })),
  ];
}

/** Conditional puts to a transaction (DynamoDB's bound), and transactions in flight at once. */
const TRANSACTION_PUTS = 100;
const PARALLEL_TRANSACTIONS = 4;

async function putEachMissing(deps: IndexDependencies, markers: readonly TableItem[]): Promise<number> {
  let put = 0;
  for (let start = 0; start < markers.length; start += PARALLEL_PUTS) {
    const results = await Promise.all(
      markers.slice(start, start + PARALLEL_PUTS).map(async (marker) => {
        try {
          await deps.table.put(marker, { condition: { kind: 'item-not-exists' } });
          return true;
        } catch (error) {
          if (error instanceof ConditionFailedError) return false;
          throw error;
        }
      }),
    );
    put += results.filter(Boolean).length;
  }
  return put;
}

/**
 * Puts the markers of the given records where none exist; answers how many were put. Those missing as read are put a
 * hundred to a transaction, each conditional on still being missing; a transaction refused because one appeared
 * meanwhile is done again marker by marker.
 */
export async function putMissingMarkers(deps: IndexDependencies, client: string, items: readonly TableItem[]): Promise<number> {
  // Reading which exist costs far less than writes refused: only the missing ones are put.
  const wanted = items.flatMap((item) => dueMarkerItems(client, item));
  const existing = new Set((await deps.table.batchGet(wanted.map((marker) => ({ pk: marker.pk, sk: marker.sk })))).map((found) => `${found.pk}\n${found.sk}`));
  const markers = wanted.filter((marker) => !existing.has(`${marker.pk}\n${marker.sk}`));
  const groups: TableItem[][] = [];
  for (let start = 0; start < markers.length; start += TRANSACTION_PUTS) groups.push(markers.slice(start, start + TRANSACTION_PUTS));
  let put = 0;
  for (let start = 0; start < groups.length; start += PARALLEL_TRANSACTIONS) {
    const results = await Promise.all(
      groups.slice(start, start + PARALLEL_TRANSACTIONS).map(async (group) => {
        try {
          await deps.table.transactWrite(group.map((marker) => ({ kind: 'put', item: marker, condition: { kind: 'item-not-exists' } })));
          return group.length;
        } catch (error) {
          if (error instanceof ConditionFailedError) return putEachMissing(deps, group);
          throw error;
        }
      }),
    );
    put += results.reduce((sum, one) => sum + one, 0);
  }
  return put;
}

/**
 * The audit trails are written one put per call, contending with nothing (DESIGN.md §8), so their markers come from
 * here: each run indexes the records since the last run's position, going back a margin for calls whose record
 * landed after a later one (a call is stamped when it starts). Conditional puts make the overlap harmless.
 */
const TRAIL_MARGIN_MS = 60 * 60 * 1000;

const TRAILS = [
  { name: 'user_activity', list: (client: string) => keys.userActivity.list(client) },
  { name: 'device_activity', list: (client: string) => keys.deviceActivity.list(client) },
] as const;

/** Indexes one tenant's new audit records; answers how many markers were put. */
export async function indexAuditTrails(deps: IndexDependencies, client: string, pageSize: number): Promise<number> {
  const positionKey = keys.retentionIndexed.key(client);
  const stored = await deps.table.get(positionKey, { consistent: true });
  const positions: Record<string, string> = { ...(stored === undefined ? {} : readRetentionIndexed(stored).positions) };
  let put = 0;
  for (const trail of TRAILS) {
    const since = positions[trail.name];
    const from = since === undefined ? '0' : new Date(Date.parse(since) - TRAIL_MARGIN_MS).toISOString();
    const query: QuerySpec = { ...trail.list(client), sort: { between: [from, '9999-12-31T23:59:59.999Z~'] }, limit: pageSize };
    let startKey: Record<string, string> | undefined;
    let latest = since;
    do {
      const page = await deps.table.query({ ...query, ...(startKey ? { startKey } : {}) });
      put += await putMissingMarkers(deps, client, page.items);
      for (const item of page.items) {
        const record = readRetainedItem(item);
        const time = record !== undefined && 'activity_time' in record ? record.activity_time : undefined;
        if (time !== undefined && (latest === undefined || time > latest)) latest = time;
      }
      // Saved page by page (ascending time), so a run cut short starts the next one near where it stopped.
      if (latest !== undefined && latest !== positions[trail.name]) {
        positions[trail.name] = latest;
        await deps.table.put(retentionIndexedToItem({ client, positions, updated_at: deps.clock.now().toISOString() }));
      }
      startKey = page.lastKey;
    } while (startKey !== undefined);
  }
  return put;
}
