import type { Dependencies } from '../dependencies.ts';
import type { TableItem } from '../ports/table-store.ts';
import { keys } from '../store/keys.ts';
import { contentOf, GENESIS_HASH, hashContent, linkOfHead, type ChainLink } from './activity-chain.ts';

/** Why a chain is not whole. */
export type ChainBreak =
  /** A record's content no longer matches its hash (a field edited, added or removed). */
  | 'edited'
  /** A sequence number has no record. */
  | 'missing'
  /** A record sits at another place than its own sequence says (moved, swapped, copied in). */
  | 'reordered'
  /** A record's `previous_hash` is not the hash of the record before it (that one was rewritten with a new hash). */
  | 'unlinked'
  /** The chain head disagrees with the last record (records cut off the end, or added after it). */
  | 'head-mismatch';

export type ChainVerdict =
  | { whole: true; count: number }
  | { whole: false; brokenAt: number; reason: ChainBreak; detail: string };

/** Records per Query page: verification streams the chain, holding one page at a time. */
const PAGE_SIZE = 500;

/** The tenant's records in chain order, page by page (strongly consistent: a just-appended record is seen). */
async function* chainRecords(table: Dependencies['table'], client: string): AsyncGenerator<TableItem> {
  const chain = keys.userActivity.chain(client);
  let startKey: Record<string, string> | undefined;
  do {
    const page = await table.query({
      ...chain,
      sort: { beginsWith: keys.userActivity.sequencePrefix },
      limit: PAGE_SIZE,
      consistent: true,
      ...(startKey === undefined ? {} : { startKey }),
    });
    yield* page.items;
    startKey = page.lastKey;
  } while (startKey !== undefined);
}

/** The sequence a record's sort key places it at (NaN for a key that is no sequence). */
function placeOf(item: TableItem): number {
  const digits = item.sk.slice(keys.userActivity.sequencePrefix.length);
  return /^\d{12}$/.test(digits) ? Number(digits) : Number.NaN;
}

const broken = (brokenAt: number, reason: ChainBreak, detail: string): ChainVerdict => ({ whole: false, brokenAt, reason, detail });

/**
 * Checks records given in chain order against each other and against the head: the first break, or the count.
 * `headBefore` is read before the records, `readHeadAfter` after them: records appended while verifying are
 * accepted, records missing from the end are not. Holds one record at a time (constant memory).
 */
export async function checkChain(
  client: string,
  records: AsyncIterable<TableItem>,
  headBefore: ChainLink | undefined,
  readHeadAfter: () => Promise<ChainLink | undefined>,
): Promise<ChainVerdict> {
  let last: ChainLink = { sequence: 0, hash: GENESIS_HASH };
  for await (const item of records) {
    const expected = last.sequence + 1;
    const place = placeOf(item);
    if (Number.isNaN(place)) return broken(expected, 'reordered', `a record is stored under the key ${item.sk.slice(0, 40)}`);
    if (place !== expected) return broken(expected, 'missing', `record #${expected} is missing (the next one is #${place})`);
    const content = contentOf(item);
    if (content.sequence !== place) {
      return broken(place, 'reordered', `the record at #${place} says it is #${String(content.sequence).slice(0, 20)}`);
    }
    if (typeof item.hash !== 'string' || hashContent(content) !== item.hash) {
      return broken(place, 'edited', `record #${place} does not match its hash (a field was changed, added or removed)`);
    }
    if (content.client !== client) return broken(place, 'reordered', `record #${place} belongs to another tenant`);
    if (content.previous_hash !== last.hash) {
      return broken(place, 'unlinked', `record #${place} does not follow record #${last.sequence} (one of them was replaced)`);
    }
    last = { sequence: place, hash: item.hash };
  }

  if (last.sequence < (headBefore?.sequence ?? 0)) {
    const next = last.sequence + 1;
    return broken(next, 'missing', `record #${next} is missing (the head names #${headBefore?.sequence ?? 0})`);
  }
  const headAfter = await readHeadAfter();
  if (headAfter === undefined) {
    if (last.sequence === 0) return { whole: true, count: 0 };
    return broken(last.sequence, 'head-mismatch', 'the chain head is missing');
  }
  if (last.sequence > headAfter.sequence) {
    return broken(headAfter.sequence + 1, 'head-mismatch', `records after #${headAfter.sequence}, where the head says the chain ends`);
  }
  if (last.sequence === headAfter.sequence && last.hash !== headAfter.hash) {
    return broken(last.sequence, 'head-mismatch', `the head's hash is not record #${last.sequence}'s`);
  }
  // The head moved past the last record seen: those records were appended after this record was read.
  return { whole: true, count: last.sequence };
}

/**
 * Verifies the tenant's whole user-activity chain: streams it in chain order with Query pages (constant memory).
 * `{ whole: true, count }`, or the first broken record with the reason.
 */
export async function verifyChain(dependencies: Pick<Dependencies, 'table'>, client: string): Promise<ChainVerdict> {
  const { table } = dependencies;
  const headKey = keys.userActivity.head(client);
  const readHead = async () => linkOfHead(await table.get(headKey, { consistent: true }));
  const headBefore = await readHead();
  return checkChain(client, chainRecords(table, client), headBefore, readHead);
}
