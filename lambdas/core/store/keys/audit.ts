import { ENTITY, list, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';

/**
 * The audit trail's items (lambdas/audit/trail, DESIGN.md §8): one record per call, written by the call itself and
 * contending with no other call, and per tenant and trail a chain that one sequencer links off the request path.
 *
 * - Records sit in the trail's own partition, sorted `<activity ISO>#<log id>`: a call's put touches only its own
 *   item. While not yet linked a record carries gsi2 `C#<c>#<TRAIL>#PENDING` / its sort key: the sparse index the
 *   sequencer Queries (oldest first), and from which linking removes it.
 * - The chain lives in `C#<c>#<TRAIL>#CHAIN`: `HEAD` (sequence, hash of the last link), one link per record
 *   `SEQ#<12 digits>` (text order is chain order, a gap is a missing number) and signed checkpoints
 *   `CHECKPOINT#<ISO time>`. Records and chain are apart, so the lists never read the chain and the sequencer's
 *   writes never meet the calls' writes on one item.
 */

/** The two audit trails: portal users' and client apps' calls, and devices' calls. */
export type ActivityTrail = 'user' | 'device';

export const ACTIVITY_TRAILS: readonly ActivityTrail[] = ['user', 'device'];

const TRAIL_TAG: Record<ActivityTrail, string> = { user: 'USER_ACTIVITY', device: 'DEVICE_ACTIVITY' };

const SEQUENCE_PREFIX = 'SEQ#';
const CHECKPOINT_PREFIX = 'CHECKPOINT#';

const trailPartition = (trail: ActivityTrail, client: string) => `${tenantPrefix(client)}${TRAIL_TAG[trail]}`;
const chainPartition = (trail: ActivityTrail, client: string) => `${trailPartition(trail, client)}#CHAIN`;

/** `SEQ#` and the chain sequence (1 or more) zero-padded to 12 digits, so text order is number order. */
function sequenceSort(sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > 999_999_999_999) {
    throw new Error(`Not a chain sequence: ${String(sequence).slice(0, 40)}`);
  }
  return `${SEQUENCE_PREFIX}${String(sequence).padStart(12, '0')}`;
}

export const auditKeys = {
  /**
   * A portal user's or client app's call (`UserActivity`): its own item, time-ordered in the trail's partition, and
   * on gsi1 `C#<c>#USER_ACTIVITY#BY_TIME` for `GET activities` (the same index partition the list has always read).
   */
  userActivity: {
    item: (client: string, activityTime: Date | string, logId: string, userId?: string): ItemKeys => ({
      pk: trailPartition('user', client),
      sk: timeSort(activityTime, logId),
      entity: ENTITY.userActivity,
      gsi1pk: `${tenantPrefix(client)}USER_ACTIVITY#BY_TIME`,
      gsi1sk: timeSort(activityTime, logId),
      // Also listed under the person who called (gsi3; gsi2 is the sequencer's pending list): a legal hold's coverage.
      ...(userId === undefined ? {} : { gsi3pk: `${tenantPrefix(client)}PERSON#${part(userId)}#ACTIVITY`, gsi3sk: timeSort(activityTime, logId) }),
    }),
    /** One person's records (`user_id`), by activity time (gsi3). */
    listByUser: (client: string, userId: string): ListKey => list('gsi3', `${tenantPrefix(client)}PERSON#${part(userId)}#ACTIVITY`),
    /** The records newest or oldest first by activity time (gsi1; a time range is a key condition on the ISO prefix). */
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}USER_ACTIVITY#BY_TIME`),
  },
  /** The chain of one trail of one tenant (see the module note). */
  activityChain: {
    /** Every record of the trail, in time order (a table Query; ISO times start with a digit, so nothing else matches). */
    records: (trail: ActivityTrail, client: string): { partition: string; sort: { between: [string, string] } } => ({
      partition: trailPartition(trail, client),
      sort: { between: ['0', ':'] },
    }),
    /** Where the record with this sort key sits (its partition is the trail's). */
    record: (trail: ActivityTrail, client: string, recordSort: string) => ({ pk: trailPartition(trail, client), sk: recordSort }),
    /** The sparse index keys a record carries until it is linked. */
    pendingKeys: (trail: ActivityTrail, client: string, recordSort: string) => ({
      gsi2pk: `${trailPartition(trail, client)}#PENDING`,
      gsi2sk: recordSort,
    }),
    /** The records waiting to be linked, oldest first (gsi2). */
    pending: (trail: ActivityTrail, client: string): ListKey => list('gsi2', `${trailPartition(trail, client)}#PENDING`),
    head: (trail: ActivityTrail, client: string): ItemKeys => ({ pk: chainPartition(trail, client), sk: 'HEAD', entity: ENTITY.auditHead }),
    link: (trail: ActivityTrail, client: string, sequence: number): ItemKeys => ({
      pk: chainPartition(trail, client),
      sk: sequenceSort(sequence),
      entity: ENTITY.auditLink,
    }),
    /** The links in chain order. */
    links: (trail: ActivityTrail, client: string): ListKey => ({ partition: chainPartition(trail, client), sort: { beginsWith: SEQUENCE_PREFIX } }),
    /** The sequence a link's sort key places it at (NaN for any other key). */
    placeOf: (sortKey: string): number => {
      const digits = sortKey.slice(SEQUENCE_PREFIX.length);
      return sortKey.startsWith(SEQUENCE_PREFIX) && /^\d{12}$/.test(digits) ? Number(digits) : Number.NaN;
    },
    checkpoint: (trail: ActivityTrail, client: string, at: string): ItemKeys => ({
      pk: chainPartition(trail, client),
      sk: `${CHECKPOINT_PREFIX}${at}`,
      entity: ENTITY.auditCheckpoint,
    }),
    /**
     * How many of the records the head and the pending index count retention has disposed of (deleted, or destroyed
     * into a stub), so a trail's total is the head's sequence plus the pending records less this, without reading the
     * records. An item of its own partition, one per tenant and trail, written only in retention's disposal
     * transactions: no sequencer write and no call's record ever meets it.
     */
    disposedCount: (trail: ActivityTrail, client: string): ItemKeys => ({
      pk: `${trailPartition(trail, client)}#DISPOSED`,
      sk: 'COUNT',
      entity: ENTITY.auditDisposedCount,
    }),
    /** The signed checkpoints in time order. */
    checkpoints: (trail: ActivityTrail, client: string): ListKey => ({
      partition: chainPartition(trail, client),
      sort: { beginsWith: CHECKPOINT_PREFIX },
    }),
  },
};
