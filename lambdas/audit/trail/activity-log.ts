import { ulid } from 'ulid';
import { DeviceActivity, UserActivity } from '#shared/contract/entities/activity.ts';
import type { Dependencies } from '../../core/dependencies.ts';
import type { ActivityLog, ActivityRecordRef } from '../../core/ports/activity-log.ts';
import type { TableItem, TransactOperation } from '../../core/ports/table-store.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { isContentAttribute, type ChainState } from './activity-chain.ts';
import { toStorableJson, type Json } from './canonical-json.ts';

/**
 * Writing the audit trails' records (DESIGN.md §8). Each call writes ITS OWN item (keyed by its time and a fresh
 * log id), so no call waits on another's audit: there is no shared item to win. A record that cannot be written
 * throws, and the caller fails the call (lambdas/core/http/activity.ts, through the `activityLog` port below).
 * Linking into the hash chain happens later, off the request path (./sequencer.ts); until then the record sits on
 * the trail's sparse pending index.
 *
 * Records are written `pending` (complete, ready to link) or, for a call that changes something, `open` before the
 * act and closed with its outcome after it (`closeActivityRecord`), so the act is on record before it happens.
 */

export type { ActivityRecordRef } from '../../core/ports/activity-log.ts';

/** One record to write: its trail, the tenant whose trail holds it, and its entry. */
export interface TrailRecord {
  trail: ActivityTrail;
  client: string;
  /** A UserActivity or DeviceActivity (by `trail`); read through the contract, kept as given when it does not parse. */
  entry: unknown;
  /** The request the record describes (API Gateway's request id), to find its log lines. */
  requestId?: string;
  /** `open`: written before the act, closed with the outcome by `closeActivityRecord`. Default `pending`. */
  state?: Extract<ChainState, 'open' | 'pending'>;
}

const Entries: Record<ActivityTrail, { safeParse(value: unknown): { success: boolean; data?: unknown } }> = {
  user: UserActivity.omit({ log_id: true }),
  device: DeviceActivity.omit({ log_id: true }),
};

/**
 * The record's own fields: the entry read through the contract (defaults applied, unknown fields dropped). An entry
 * the contract refuses is still recorded as given (`entry_invalid: true`): losing an audit record is worse than
 * keeping an odd one. Placement and bookkeeping attributes are never taken from an entry.
 */
function fieldsOf(trail: ActivityTrail, entry: unknown): { [attribute: string]: Json } {
  const parsed = Entries[trail].safeParse(entry);
  const storable = toStorableJson(parsed.success ? parsed.data : entry);
  const fields: { [attribute: string]: Json } = {};
  if (storable !== null && typeof storable === 'object' && !Array.isArray(storable)) {
    for (const [attribute, value] of Object.entries(storable)) {
      if (isContentAttribute(attribute) && attribute !== 'log_id' && attribute !== 'client') fields[attribute] = value;
    }
  }
  if (!parsed.success) fields.entry_invalid = true;
  return fields;
}

/** Activity time as the ISO text the keys sort by; a value that is no time sorts at the write time. */
function timeKey(activityTime: unknown, now: Date): string {
  if (typeof activityTime === 'string') {
    const parsed = Date.parse(activityTime);
    if (!Number.isNaN(parsed)) return new Date(parsed).toISOString();
  }
  return now.toISOString();
}

/** The item of a new record, and where it is. */
export function recordItem(record: TrailRecord, now: Date): { item: TableItem; ref: ActivityRecordRef } {
  const { trail, client, entry } = record;
  const fields = fieldsOf(trail, entry);
  const time = timeKey(fields.activity_time, now);
  const given = (entry as { log_id?: unknown } | null)?.log_id;
  const logId = trail === 'device' && typeof given === 'string' && given.length > 0 ? given.slice(0, 64) : ulid(now.getTime());
  const placement =
    trail === 'user'
      ? keys.userActivity.item(client, time, logId, typeof fields.user_id === 'string' && fields.user_id.length > 0 ? fields.user_id : undefined)
      : keys.deviceActivity.item(client, { activityTime: time, logId, deviceReference: typeof fields.device_reference === 'string' ? fields.device_reference : '-' });
  const item: TableItem = {
    ...placement,
    ...keys.activityChain.pendingKeys(trail, client, placement.sk),
    ...fields,
    log_id: logId,
    client,
    ...(record.requestId === undefined ? {} : { request_id: record.requestId.slice(0, 128) }),
    chain_state: record.state ?? 'pending',
  };
  return { item, ref: { trail, client, key: { pk: placement.pk, sk: placement.sk }, logId } };
}

/** Writes one record (a put that must create its own item). Throws when it cannot: the call must then fail. */
export async function writeActivityRecord(deps: Pick<Dependencies, 'table' | 'clock'>, record: TrailRecord): Promise<ActivityRecordRef> {
  const { item, ref } = recordItem(record, deps.clock.now());
  await deps.table.put(item, { condition: { kind: 'item-not-exists' } });
  return ref;
}

/**
 * Writes that must commit together with their record, or not at all (e.g. a terms acceptance and the record of it).
 * Answering undefined abandons the write: nothing is written.
 */
export type CompanionWrites = () => Promise<readonly TransactOperation[] | undefined>;

/** DynamoDB's limit per transaction, less the record. */
const MAX_COMPANION_WRITES = 99;
const COMPANION_ATTEMPTS = 5;

/**
 * `writeActivityRecord` with companion writes in the same transaction: the record exists if and only if they were
 * written. A companion whose condition fails is asked again (it may now answer undefined), a few times at most.
 */
export async function writeActivityRecordWith(
  deps: Pick<Dependencies, 'table' | 'clock'>,
  record: TrailRecord,
  companions: CompanionWrites,
): Promise<ActivityRecordRef | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const extra = await companions();
    if (extra === undefined) return undefined;
    if (extra.length > MAX_COMPANION_WRITES) throw new Error(`At most ${MAX_COMPANION_WRITES} companion writes per record`);
    const { item, ref } = recordItem(record, deps.clock.now());
    try {
      await deps.table.transactWrite([{ kind: 'put', item, condition: { kind: 'item-not-exists' } }, ...extra]);
      return ref;
    } catch (error) {
      const conflict = (error as { name?: string }).name === 'ConditionFailedError';
      if (!conflict || attempt >= COMPANION_ATTEMPTS) throw error;
    }
  }
}

/**
 * Closes an `open` record with the call's outcome (status, end time, and whatever the final entry says) and makes it
 * `pending`, ready to link. Conditional on the record still being open: a record the sequencer already linked as
 * abandoned (./sequencer.ts) is never changed under its hash; that throws, and the call answers 500.
 */
export async function closeActivityRecord(deps: Pick<Dependencies, 'table'>, ref: ActivityRecordRef, finalEntry: unknown): Promise<void> {
  const fields = fieldsOf(ref.trail, finalEntry);
  delete fields.activity_time; // the record's place (its sort key) was chosen by it
  await deps.table.update(
    ref.key,
    { set: { ...fields, chain_state: 'pending' } },
    { condition: { kind: 'expression', expression: '#state = :open', names: { '#state': 'chain_state' }, values: { ':open': 'open' } } },
  );
}

/** The HTTP pipeline's activity log port (lambdas/core/ports/activity-log.ts), wired by lambdas/api-recorders.ts. */
export const activityLog: ActivityLog = { write: writeActivityRecord, close: closeActivityRecord };
