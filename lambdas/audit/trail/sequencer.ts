import type { Dependencies } from '../../core/dependencies.ts';
import type { TableItem, TransactOperation } from '../../core/ports/table-store.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { CHAIN_VERSION, entryHash, GENESIS_HASH, linkHash, linkOfHead, type ChainLink, type LinkContent } from './activity-chain.ts';
import { auditHeadToItem, auditLinkToItem, readAuditRecordMarks } from '../../core/store/entities/audit-chain.ts';

/**
 * The sequencer of one trail of one tenant (DESIGN.md §8): links the records waiting on the trail's sparse pending
 * index into the hash chain, oldest first, in batches, off the request path. In AWS a DynamoDB Streams trigger runs
 * it for the tenants whose records arrived (lambdas/jobs/audit-stream.ts), and a schedule sweeps every tenant; on
 * one machine the local stack's poller does (scripts/local/audit-sequencer.ts).
 *
 * One batch is ONE transaction: the head moves from the sequence read to the new one (conditional), each link is put
 * (must not exist), and each record is marked linked and leaves the pending index (conditional on the state read).
 * Two sequencer runs for one tenant can therefore never fork the chain: of two batches built on the same head, one
 * commits and the other is cancelled, re-reads and goes on from the new head. A record is linked at most once.
 */

export interface LinkOptions {
  /** Records per transaction: each takes two of DynamoDB's 100 operations (link and record), plus the head. */
  batchSize?: number;
  /** Stop after this many batches (a Lambda's time is bounded); the rest waits for the next run. */
  maxBatches?: number;
  /**
   * An `open` record (a write's, its outcome not yet written) older than this is linked as it is: its call died
   * between the act and the outcome (a Lambda times out after 10 s), and the chain must not wait on it forever.
   */
  abandonOpenAfterMs?: number;
  /** Lost races tolerated per batch before giving up (another run is making progress meanwhile). */
  maxAttempts?: number;
  sleep?: (milliseconds: number) => Promise<void>;
}

export interface LinkResult {
  linked: number;
  head: ChainLink;
}

export const MAX_BATCH = 49;
const DEFAULT_MAX_BATCHES = 200;
const DEFAULT_ABANDON_MS = 5 * 60_000;
const DEFAULT_ATTEMPTS = 20;
/**
 * Pending entries read beyond a batch: the index may still list records just linked (its reads are eventually
 * consistent) or open ones still waiting for their outcome. Few: each is read again from the table.
 */
const READ_AHEAD = 11;

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** Another run's batch, or a record closed meanwhile: re-read and go on. */
function lostRace(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'ConditionFailedError' || name === 'TransactionCanceledException' || name === 'TransactionConflictException';
}

/** Which chain: one trail of one tenant. */
interface TrailOf {
  trail: ActivityTrail;
  client: string;
}

/** The records ready to link now, oldest first, read from the table itself (the index only says where to look). */
async function readyRecords(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  { trail, client }: TrailOf,
  { batchSize, abandonOpenAfterMs }: { batchSize: number; abandonOpenAfterMs: number },
): Promise<TableItem[]> {
  const page = await deps.table.query({ ...keys.activityChain.pending(trail, client), limit: batchSize + READ_AHEAD });
  if (page.items.length === 0) return [];
  const current = await deps.table.batchGet(page.items.map((item) => ({ pk: item.pk, sk: item.sk })));
  const bySort = new Map(current.map((item) => [item.sk, item]));
  const abandonBefore = deps.clock.now().getTime() - abandonOpenAfterMs;
  const ready: TableItem[] = [];
  for (const listed of page.items) {
    const record = bySort.get(listed.sk);
    if (record === undefined || record.pk !== listed.pk) continue;
    const { chain_state: state, activity_time: time } = readAuditRecordMarks(record);
    const abandoned = state === 'open' && time !== undefined && Date.parse(time) < abandonBefore;
    if (state === 'pending' || abandoned) ready.push(record);
    if (ready.length === batchSize) break;
  }
  return ready;
}

/** The transaction that links `records` after `head`, and the new head. */
function linkBatch({ trail, client }: TrailOf, head: ChainLink | undefined, records: readonly TableItem[], now: string) {
  const headKey = keys.activityChain.head(trail, client);
  const operations: TransactOperation[] = [];
  let last: ChainLink = head ?? { sequence: 0, hash: GENESIS_HASH };
  for (const record of records) {
    const content: LinkContent = {
      chain_version: CHAIN_VERSION,
      client,
      trail,
      sequence: last.sequence + 1,
      previous_hash: last.hash,
      entry_hash: entryHash(record),
      record: record.sk,
    };
    const hash = linkHash(content);
    operations.push({ kind: 'put', item: auditLinkToItem({ ...content, hash }), condition: { kind: 'item-not-exists' } });
    operations.push({
      kind: 'update',
      key: { pk: record.pk, sk: record.sk },
      update: { set: { chain_state: 'linked', sequence: content.sequence }, remove: ['gsi2pk', 'gsi2sk'] },
      condition: { kind: 'expression', expression: '#state = :read', names: { '#state': 'chain_state' }, values: { ':read': readAuditRecordMarks(record).chain_state } },
    });
    last = { sequence: content.sequence, hash };
  }
  operations.unshift(
    head === undefined
      ? { kind: 'put', item: auditHeadToItem(trail, client, { sequence: last.sequence, hash: last.hash, linked_at: now }), condition: { kind: 'item-not-exists' } }
      : {
          kind: 'update',
          key: headKey,
          update: { set: { sequence: last.sequence, hash: last.hash, linked_at: now } },
          condition: { kind: 'expression', expression: '#sequence = :read', names: { '#sequence': 'sequence' }, values: { ':read': head.sequence } },
        },
  );
  return { operations, head: last };
}

/** Links the trail's waiting records into its chain, batch by batch, until none is ready (or `maxBatches`). */
export async function linkPending(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  trail: ActivityTrail,
  client: string,
  options: LinkOptions = {},
): Promise<LinkResult> {
  const batchSize = Math.min(MAX_BATCH, Math.max(1, options.batchSize ?? MAX_BATCH));
  const maxBatches = options.maxBatches ?? DEFAULT_MAX_BATCHES;
  const abandonAfter = options.abandonOpenAfterMs ?? DEFAULT_ABANDON_MS;
  const maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  const sleep = options.sleep ?? defaultSleep;
  const headKey = keys.activityChain.head(trail, client);
  let linked = 0;
  let head: ChainLink = { sequence: 0, hash: GENESIS_HASH };

  for (let batch = 0; batch < maxBatches; batch += 1) {
    for (let attempt = 1; ; attempt += 1) {
      // The index first: an idle trail costs one Query (the local poller asks every second).
      const records = await readyRecords(deps, { trail, client }, { batchSize, abandonOpenAfterMs: abandonAfter });
      const stored = await deps.table.get(headKey, { consistent: true });
      const current = linkOfHead(stored);
      if (stored !== undefined && current === undefined) throw new Error(`The ${trail} activity chain head of ${client} is malformed`);
      head = current ?? { sequence: 0, hash: GENESIS_HASH };
      if (records.length === 0) return { linked, head };
      const next = linkBatch({ trail, client }, current, records, deps.clock.now().toISOString());
      try {
        await deps.table.transactWrite(next.operations);
        linked += records.length;
        head = next.head;
        break;
      } catch (error) {
        if (!lostRace(error) || attempt >= maxAttempts) throw error;
        await sleep(Math.floor(Math.random() * 20 * Math.min(attempt, 5)));
      }
    }
  }
  return { linked, head };
}
