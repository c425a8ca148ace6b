import type { LedgerPayloadType } from '#shared/constants/completeness.ts';
import type { PayloadType } from '#shared/constants/payloads.ts';
import type { CompletenessEntry } from '#shared/contract/entities/completeness.ts';
import type { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import type { Page } from '#core/store/cursor.ts';
import { awaitingEntryKeys, readAwaitingEntry, type AwaitingEntryItem } from '#core/store/entities/awaiting-entry.ts';
import { ledgerEntryKeys, ledgerEntryReference, readLedgerEntry, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { ENTITY, type ListKey } from '#core/store/keys.ts';
import { allOf, inScope, listPage, notDeletedByRetention, type ItemFilter, type QueryOf } from '#core/store/paging.ts';
import { withNames } from './names.ts';
import { reportPeriod, timeKeyRange } from './period.ts';
import { ledgerTypeOf } from '../reconcile/match.ts';
import { ledgerTypesOf } from './scope.ts';

export type EntriesQuery = QueryOf<typeof completenessEndpoints, 'client.completeness.entries'>;

/** What the list needs named when the query names neither an outcome nor whose entries: one line, the fields to add. */
export const ENTRIES_NEED_A_LIST = 'query.outcome: Name an outcome, a device user (device_user_reference) or a device (device_reference) to list entries';

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** A stored ledger entry as a row of the list. */
export function entryOfLedger(entry: LedgerEntryItem): CompletenessEntry {
  return {
    entry_reference: ledgerEntryReference(entry.device_reference, entry.entry_id),
    entry_id: entry.entry_id,
    outcome: entry.outcome,
    payload_type: entry.payload_type,
    direction: entry.direction,
    ...optional('phone_number', entry.phone_number),
    ...optional('thread_id', entry.thread_id),
    start_time: entry.start_time,
    ...optional('duration', entry.duration),
    device_reference: entry.device_reference,
    ...optional('device_user_reference', entry.device_user_reference),
    ...optional('group', entry.group),
    ...optional('payload_reference', entry.payload_reference),
    ...optional('recording_duration', entry.recording_duration),
    ...optional('is_intermittent', entry.is_intermittent),
    ...optional('uploaded_at', entry.uploaded_at),
    reported_at: entry.reported_at,
    outcome_at: entry.outcome_at,
    due_at: entry.due_at,
  };
}

/** A recording no entry explains (an Unexpected marker) as a row of the list: named by its payload reference. */
export function entryOfUnexpected(marker: AwaitingEntryItem): CompletenessEntry {
  return {
    entry_reference: marker.payload_reference,
    outcome: 'Unexpected',
    payload_type: marker.payload_type,
    direction: marker.direction,
    // The other party as the recording has it (digits only: the marker keeps what matching compares).
    ...optional('phone_number', marker.numbers[0]),
    ...optional('thread_id', marker.thread_id),
    start_time: marker.payload_time,
    device_reference: marker.device_reference,
    ...optional('device_user_reference', marker.device_user_reference),
    ...optional('group', marker.group),
    payload_reference: marker.payload_reference,
    ...optional('recording_duration', marker.recording_duration),
    ...optional('is_intermittent', marker.is_intermittent),
    uploaded_at: marker.uploaded_at,
    ...optional('outcome_at', marker.unexpected_at),
  };
}

/** Either kind of item the lists hold, as the contract shows it. */
function entryOf(item: TableItem): CompletenessEntry | undefined {
  if (item.entity === ENTITY.ledgerEntry) return entryOfLedger(readLedgerEntry(item));
  if (item.entity === ENTITY.awaitingEntry) return entryOfUnexpected(readAwaitingEntry(item));
  return undefined;
}

/** The few attributes the filters read, straight from the item (both kinds carry them under the same names). */
const attribute = (item: TableItem, name: string): unknown => item[name];
const isUnexpectedMarker = (item: TableItem) => item.entity === ENTITY.awaitingEntry && item.unexpected === true;
const outcomeOfItem = (item: TableItem): unknown => (item.entity === ENTITY.awaitingEntry ? (item.unexpected === true ? 'Unexpected' : undefined) : item.outcome);

/**
 * Which list answers the query, narrowest first (each one Query on a start-time key range, newest first):
 * - a device: its entries by start time (`outcome=Unexpected`: its recordings awaiting an entry, the Unexpected ones);
 * - a device user: their entries and Unexpected recordings by start time;
 * - an outcome: the tenant's entries of that outcome (`Unexpected`: the tenant's Unexpected recordings).
 * With none of them the list would be every entry of the tenant, which no one key holds: the query must name one.
 */
function listOf(client: string, query: EntriesQuery): ListKey {
  if (query.device_reference !== undefined) {
    return query.outcome === 'Unexpected' ? awaitingEntryKeys.listByDevice(client, query.device_reference) : ledgerEntryKeys.listByDevice(client, query.device_reference);
  }
  if (query.device_user_reference !== undefined) return ledgerEntryKeys.listByDeviceUser(client, query.device_user_reference);
  if (query.outcome !== undefined) return ledgerEntryKeys.listByOutcome(client, query.outcome);
  throw new ValidationError([ENTRIES_NEED_A_LIST]);
}

/**
 * `GET completeness/entries`: the ledger entries (and Unexpected recordings) behind a count, newest first by start
 * time, over the period (default the last 30 days; at most COMPLETENESS_PERIOD_DAYS_MAX days). What the key cannot
 * narrow is filtered while paging: outcome, group, device user, payload type; then the caller's scopes: the entry's
 * group (the group that held its device when it was stored, as its counts) and its payload type. A caller allowed no
 * ledger payload type sees no entry. `result_type=total` counts exactly what the pages show.
 */
export async function listCompletenessEntries(caller: TenantCaller, query: EntriesQuery): Promise<Page<CompletenessEntry> | { count: number }> {
  const { deps, tenant: client } = caller;
  const list = listOf(client, query);
  const period = reportPeriod(query, deps.clock.now());
  const allowed = new Set<LedgerPayloadType>(ledgerTypesOf(caller.payloadScope().types));
  if (allowed.size === 0) return query.result_type === 'total' ? { count: 0 } : { count: 0, data: [] };

  const keep: ItemFilter | undefined = allOf(
    notDeletedByRetention,
    (item) => item.entity === ENTITY.ledgerEntry || isUnexpectedMarker(item),
    // By ledger type, as the counts are: an Unexpected aborted call is listed (and counted) as a call.
    (item) => allowed.has(ledgerTypeOf(item.payload_type as PayloadType) as LedgerPayloadType),
    query.outcome === undefined ? undefined : (item) => outcomeOfItem(item) === query.outcome,
    query.group === undefined ? undefined : (item) => attribute(item, 'group') === query.group,
    query.device_user_reference === undefined ? undefined : (item) => attribute(item, 'device_user_reference') === query.device_user_reference,
    query.payload_type === undefined ? undefined : (item) => ledgerTypeOf(item.payload_type as PayloadType) === query.payload_type,
  );
  const filters = {
    outcome: query.outcome,
    group: query.group,
    device_user_reference: query.device_user_reference,
    device_reference: query.device_reference,
    payload_type: query.payload_type,
  };
  const result = await listPage(deps, {
    client,
    query: { ...list, sort: { between: timeKeyRange(period) }, descending: true },
    filters,
    page: query,
    keep: inScope(caller.groupScope(), keep),
    toData: entryOf,
  });
  if (!('data' in result)) return result;
  return { ...result, data: await withNames(deps, client, result.data) };
}
