import type * as z from 'zod';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { CountOnly } from '#shared/contract/entities/common.ts';
import type { pageQuery } from '#shared/contract/endpoints/query.ts';
import type { GroupScope } from '../auth/access/group-scope.ts';
import type { Dependencies } from '../dependencies.ts';
import { ValidationError } from '../errors.ts';
import type { QuerySpec, TableItem, TableStore } from '../ports/table-store.ts';
import { describeQuery, type Page } from './cursor.ts';
import { TABLE_KEYS } from './table-definition.ts';

/**
 * Every list of the backend pages here: one Query (never a Scan), filters the key cannot express applied while
 * reading (what a DynamoDB FilterExpression would do, with its cost model: items read, not items returned), a signed
 * cursor bound to the tenant and the exact list, and `result_type=total` counted exactly or refused.
 */

/**
 * Items one page reads at most while filtering. A selective filter (a group-limited role, a rare state) then answers
 * a short page with a cursor that goes on, rather than reading a whole partition in one request.
 */
export const MAX_READ_PER_PAGE = 1_000;
/**
 * Items a total (or a whole-list read) reads at most. A total is exact or refused, never the count so far: beyond
 * this a 400 asks the caller to narrow the list. It is above the largest fleets (~20,000 devices) and the longest
 * range a person counts at once, and reads in a few seconds (50 Query pages), well inside the API's time limit.
 */
export const MAX_READ_FOR_TOTAL = 50_000;
/** Query page size while filtering: enough that a selective filter fills a page in a few reads. */
export const FILTER_BATCH = 100;
/** Query page size while counting or reading a whole list: DynamoDB caps a page at 1 MB anyway. */
const WALK_BATCH = 1_000;

/** The paging fields of every list query, as the contract parses them (`pageQuery` of shared/contract). */
export type PageQuery = z.output<z.ZodObject<typeof pageQuery>>;

/**
 * The query of one endpoint of a contract group, as the contract parses it: `QueryOf<typeof deviceEndpoints,
 * 'admin.devices.list'>`. List services take exactly this, so a filter added to the contract reaches them typed.
 */
export type QueryOf<Group extends readonly Endpoint[], Id extends Group[number]['id']> = z.output<Extract<Group[number], { id: Id }>['query']>;

/**
 * The items of one batch that pass the list's filters. It may be async: a group scope reads the facts of a batch's
 * groups once per batch.
 */
export type BatchFilter = (items: readonly TableItem[]) => readonly TableItem[] | Promise<readonly TableItem[]>;
/** A filter the key cannot express, applied to each item read. */
export type ItemFilter = (item: TableItem) => boolean;

/**
 * Whether a record is live, not deleted by retention: the retention job marks a record other than a payload Deleted
 * (`retention_state`) before it destroys it, and a deleted record leaves the lists that show live data. A payload keeps
 * its own state (`payload_state` Deleted), which its lists show and filter.
 */
export const notDeletedByRetention: ItemFilter = (item) => item.retention_state === undefined;

/** A per-item filter as a BatchFilter (undefined stays undefined: nothing to filter). */
export function perItem(keep: ItemFilter | undefined): BatchFilter | undefined {
  return keep === undefined ? undefined : (items) => items.filter(keep);
}

/** All the given filters (undefined ones skipped), or undefined when there are none. */
export function allOf(...filters: Array<ItemFilter | undefined>): ItemFilter | undefined {
  const present = filters.filter((filter): filter is ItemFilter => filter !== undefined);
  if (present.length === 0) return undefined;
  return (item) => present.every((filter) => filter(item));
}

/**
 * The item filter, then the caller's group scope (the items whose group the scope allows). An unrestricted scope
 * adds nothing, so lists of a role without group conditions do no group look-ups.
 */
export function inScope(scope: GroupScope, keep?: ItemFilter): BatchFilter | undefined {
  if (scope.unrestricted) return perItem(keep);
  return (items) => scope.filter(keep === undefined ? items : items.filter(keep));
}

/** One list of one tenant, as every list endpoint describes it. */
export interface ListSpec<T> {
  /** The tenant the list belongs to (the provider's own `admin` for the internal lists): the cursor is bound to it. */
  client: string;
  /** The Query without its limit and start key: index, partition, sort-key narrowing, order. */
  query: QuerySpec;
  /**
   * What else shapes the list (filters, caller facts such as readable scopes): the cursor is bound to these as well as
   * to the Query, so a cursor of one list is refused by any other.
   */
  filters?: Record<string, string | number | boolean | undefined>;
  /** The contract's paging fields: cursor, page size and (when the endpoint offers it) `result_type`. */
  page: Pick<PageQuery, 'last_key' | 'limit'> & { result_type?: PageQuery['result_type'] | undefined };
  /** Filters the key cannot express, applied batch by batch (`perItem`, `inScope`). */
  keep?: BatchFilter | undefined;
  /** The item as the answer shows it; undefined leaves it out (a record the contract cannot read). */
  toData: (item: TableItem) => T | undefined;
}

type PagingDependencies = Pick<Dependencies, 'table' | 'cursors'>;

/** The stable text a cursor of this list is bound to (with the tenant). */
function bindingOf(spec: ListSpec<unknown>) {
  const { query } = spec;
  return { client: spec.client, query: describeQuery(query, { ...spec.filters, ...(query.descending === true ? { descending: true } : {}) }) };
}

/**
 * A list endpoint's answer: the contract's page (`{count, last_key, data}`; `last_key` absent on the last page), or
 * with `result_type=total` the exact count (`{count}`), refused with a 400 beyond MAX_READ_FOR_TOTAL items read.
 */
export async function listPage<T>(deps: PagingDependencies, spec: ListSpec<T>): Promise<Page<T> | CountOnly> {
  if (spec.page.result_type === 'total') return { count: await countItems(deps.table, spec.query, spec.keep) };
  return pageOf(deps, spec);
}

/** One page of the list (`result_type` is not looked at: for lists whose total the caller answers otherwise). */
export async function pageOf<T>(deps: PagingDependencies, spec: ListSpec<T>): Promise<Page<T>> {
  const binding = bindingOf(spec);
  const startKey = spec.page.last_key === undefined ? undefined : deps.cursors.decode(spec.page.last_key, binding);
  const { data, lastKey } = await fillPage(deps.table, { query: spec.query, startKey, limit: spec.page.limit, keep: spec.keep, toData: spec.toData });
  return { count: data.length, data, ...(lastKey === undefined ? {} : { last_key: deps.cursors.encode(lastKey, binding) }) };
}

/** The key of an item in the list it was read from (what DynamoDB's LastEvaluatedKey would be): table key plus index key. */
export function cursorKeyOf(list: { index?: string | undefined }, item: TableItem): Record<string, string> {
  const key: Record<string, string> = { pk: item.pk, sk: item.sk };
  // The index's own key attributes (a named index's are not `<name>pk`: byThread keeps by_thread_pk, by_thread_sk).
  const index = TABLE_KEYS.indexes.find((entry) => entry.name === list.index);
  if (index !== undefined) {
    key[index.partitionKey] = String(item[index.partitionKey]);
    key[index.sortKey] = String(item[index.sortKey]);
  }
  return key;
}

function tooManyToCount(query: QuerySpec): ValidationError {
  const narrow = query.sort !== undefined && 'between' in query.sort ? 'narrow the time range' : 'narrow the filters';
  return new ValidationError([`query.result_type: More than ${MAX_READ_FOR_TOTAL} records to count; ${narrow}`]);
}

/**
 * Every page of `query` in turn (empty pages skipped), `pageSize` items at most each. Jobs and checks that act on
 * each item as they go walk this way (constant memory; a job's own time limit bounds it). A request that needs a
 * whole list uses countItems or readAll, which stop at MAX_READ_FOR_TOTAL.
 */
export async function* eachPage(table: Pick<TableStore, 'query'>, query: QuerySpec, pageSize = WALK_BATCH): AsyncGenerator<TableItem[]> {
  let startKey: Record<string, string> | undefined;
  do {
    const page = await table.query({ ...query, limit: pageSize, ...(startKey ? { startKey } : {}) });
    if (page.items.length > 0) yield page.items;
    startKey = page.lastKey;
  } while (startKey !== undefined);
}

/**
 * The exact number of items of `query` that pass `keep`: every page is read. Beyond MAX_READ_FOR_TOTAL items read
 * it refuses (400) rather than answer a count that stops short.
 */
export async function countItems(table: Pick<TableStore, 'query'>, query: QuerySpec, keep?: BatchFilter): Promise<number> {
  let count = 0;
  let read = 0;
  for await (const items of eachPage(table, query)) {
    read += items.length;
    if (read > MAX_READ_FOR_TOTAL) throw tooManyToCount(query);
    count += keep === undefined ? items.length : (await keep(items)).length;
  }
  return count;
}

/**
 * Every item of `query`, for the reviews and checks that must see a whole list (a tenant's roles, groups, tags).
 * Bounded like a total; such lists are hundreds of items, so reaching the bound is a fault, not a request to refuse.
 */
export async function readAll(table: Pick<TableStore, 'query'>, query: QuerySpec): Promise<TableItem[]> {
  const items: TableItem[] = [];
  for await (const page of eachPage(table, query)) {
    items.push(...page);
    if (items.length > MAX_READ_FOR_TOTAL) throw new Error(`List ${query.partition} holds more than ${MAX_READ_FOR_TOTAL} items`);
  }
  return items;
}

export interface FillInput<T> {
  /** The Query, without its limit and start key. */
  query: QuerySpec;
  /** Where the previous page stopped (the decoded cursor). */
  startKey: Record<string, string> | undefined;
  /** Items the page holds at most. */
  limit: number;
  keep: BatchFilter | undefined;
  toData: (item: TableItem) => T | undefined;
}

/**
 * Fills one page from `query`, applying `keep` batch by batch. It stops when the page is full (the cursor is then the
 * key of its last item, unless that item was the list's very last: no cursor to an empty page), when the list ends,
 * or after MAX_READ_PER_PAGE items read (the cursor is where the reading stopped: a short page that goes on).
 * Its first batch reads what the page needs and one more (to know whether a cursor is due), filtered or not.
 */
export async function fillPage<T>(
  table: Pick<TableStore, 'query'>,
  input: FillInput<T>,
): Promise<{ data: T[]; lastKey: Record<string, string> | undefined }> {
  const data: T[] = [];
  let startKey = input.startKey;
  let read = 0;
  for (;;) {
    const wanted = input.limit - data.length;
    // The first batch reads what the page needs and one more, filtered or not: most filters keep nearly every item
    // (retention's, a scope that allows the page's groups), and reading FILTER_BATCH for a page of 50 would double its
    // cost. Only once the filter has left items out does each further batch read FILTER_BATCH.
    const page = await table.query({
      ...input.query,
      limit: input.keep === undefined || read === 0 ? wanted + 1 : Math.max(wanted + 1, FILTER_BATCH),
      ...(startKey ? { startKey } : {}),
    });
    const kept = input.keep === undefined ? undefined : new Set(await input.keep(page.items));
    for (const [position, item] of page.items.entries()) {
      read += 1;
      if (kept === undefined || kept.has(item)) {
        const value = input.toData(item);
        if (value !== undefined) data.push(value);
      }
      if (data.length === input.limit) {
        const atEnd = position === page.items.length - 1 && page.lastKey === undefined;
        return { data, lastKey: atEnd ? undefined : cursorKeyOf(input.query, item) };
      }
    }
    if (page.lastKey === undefined) return { data, lastKey: undefined };
    if (read >= MAX_READ_PER_PAGE) return { data, lastKey: page.lastKey };
    startKey = page.lastKey;
  }
}
