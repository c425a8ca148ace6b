import { ulid } from 'ulid';
import type { Dependencies } from '../dependencies.ts';
import { ConditionFailedError, type TransactOperation } from '../ports/table-store.ts';
import { keys } from '../store/keys.ts';
import { buildRecord, GENESIS_HASH, linkOfHead, type ChainLink } from './activity-chain.ts';

/** Tuning and test seams for the append loop. */
export interface AppendOptions {
  /** Attempts before giving up (each one re-reads the head). */
  maxAttempts?: number;
  /** Upper bound of one backoff, in milliseconds. */
  maxDelayMs?: number;
  /** Random in [0, 1); jitter spreads the retries of Lambdas that lost the same race. */
  random?: () => number;
  sleep?: (milliseconds: number) => Promise<void>;
  requestId?: string;
}

const DEFAULT_ATTEMPTS = 50;
const DEFAULT_MAX_DELAY_MS = 100;
const BASE_DELAY_MS = 5;

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** The head moved (another append won), or DynamoDB cancelled the transaction for a concurrent one. Both: re-read. */
function lostRace(error: unknown): boolean {
  if (error instanceof ConditionFailedError) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TransactionCanceledException' || name === 'TransactionConflictException';
}

/** The chain is full or the head is not a head: nothing a retry can fix. */
export class AuditChainError extends Error {
  override readonly name = 'AuditChainError';
}

/** Activity time as the ISO text the time index sorts by; a value that is no time sorts at the append time. */
function timeKey(activityTime: unknown, now: Date): string {
  if (typeof activityTime === 'string') {
    const parsed = Date.parse(activityTime);
    if (!Number.isNaN(parsed)) return new Date(parsed).toISOString();
  }
  return now.toISOString();
}

/**
 * Writes that must commit together with an activity record, or not at all (e.g. a terms acceptance and the record
 * that audits it). Called before every attempt, after the head was read, so it can re-read what it depends on: a
 * lost race may have been lost to a write that makes the companion pointless. Answering undefined abandons the
 * append: nothing is written.
 */
export type CompanionWrites = () => Promise<readonly TransactOperation[] | undefined>;

/** DynamoDB's limit per transaction, less the record and the head. */
const MAX_COMPANION_WRITES = 98;

/**
 * Appends one record to the tenant's chain and returns its link. Optimistic concurrency on the chain head: read the
 * head (strongly consistent), then in ONE transaction put record `head + 1` (must not exist) and move the head
 * (conditional on its sequence still being the one read). Many Lambdas appending at once never fork the chain: of
 * those that read the same head exactly one transaction commits; the others re-read and retry with exponential
 * backoff and full jitter, at most `maxAttempts` times, then throw. One chain per tenant is the price of a single
 * order: per tenant, appends are serial (about one DynamoDB transaction each).
 */
export async function appendUserActivity(
  dependencies: Pick<Dependencies, 'table' | 'clock'>,
  client: string,
  entry: unknown,
  options: AppendOptions = {},
): Promise<ChainLink> {
  const link = await appendUserActivityWith(dependencies, client, entry, async () => [], options);
  if (link === undefined) throw new AuditChainError('An append without companion writes was abandoned');
  return link;
}

/**
 * `appendUserActivity` with companion writes in the same transaction as the record and the head: the record exists
 * if and only if they were written. Answers undefined when `companions` abandoned the append. A companion whose own
 * condition fails is retried like a lost race, so `companions` must notice on its next call that its write is no
 * longer wanted (else the append gives up after `maxAttempts`).
 */
export async function appendUserActivityWith(
  dependencies: Pick<Dependencies, 'table' | 'clock'>,
  client: string,
  entry: unknown,
  companions: CompanionWrites,
  options: AppendOptions = {},
): Promise<ChainLink | undefined> {
  const { table, clock } = dependencies;
  const maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  const maxDelay = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const headKey = keys.userActivity.head(client);
  const logId = ulid();

  for (let attempt = 1; ; attempt += 1) {
    const stored = await table.get(headKey, { consistent: true });
    const head = linkOfHead(stored);
    if (stored !== undefined && head === undefined) throw new AuditChainError(`The audit chain head of ${client} is malformed`);
    const extra = await companions();
    if (extra === undefined) return undefined;
    if (extra.length > MAX_COMPANION_WRITES) throw new AuditChainError(`At most ${MAX_COMPANION_WRITES} companion writes per record`);
    const previous: ChainLink = head ?? { sequence: 0, hash: GENESIS_HASH };
    const sequence = previous.sequence + 1;
    const { content, hash } = buildRecord({
      client,
      sequence,
      previousHash: previous.hash,
      logId,
      entry,
      ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
    });
    const record = { ...keys.userActivity.item(client, timeKey(content.activity_time, clock.now()), sequence), ...content, hash };
    const moveHead: TransactOperation =
      head === undefined
        ? { kind: 'put', item: { ...headKey, sequence, hash }, condition: { kind: 'item-not-exists' } }
        : {
            kind: 'update',
            key: headKey,
            update: { set: { sequence, hash } },
            condition: { kind: 'expression', expression: '#sequence = :read', names: { '#sequence': 'sequence' }, values: { ':read': head.sequence } },
          };
    try {
      await table.transactWrite([{ kind: 'put', item: record, condition: { kind: 'item-not-exists' } }, moveHead, ...extra]);
      return { sequence, hash };
    } catch (error) {
      if (!lostRace(error) || attempt >= maxAttempts) throw error;
      const ceiling = Math.min(maxDelay, BASE_DELAY_MS * 2 ** Math.min(attempt, 16));
      await sleep(Math.floor(random() * ceiling));
    }
  }
}
