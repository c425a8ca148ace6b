import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, tenantPrefix, type ItemKeys, type ListKey } from '../key-parts.ts';
import { claimItem, readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/**
 * The audit trail's items (lambdas/audit/trail, DESIGN.md §8): one record per call, written by the call itself and
 * contending with no other call, and per tenant and trail a chain that one sequencer links off the request path.
 *
 * - Records sit in the trail's own partition, sorted `<activity ISO>#<log id>`: a call's put touches only its own
 *   item. While not yet linked a record carries the pending index (gsi2) `C#<c>#<TRAIL>#PENDING` / its sort key: the
 *   sparse index the sequencer Queries (oldest first), and from which linking removes it.
 * - The chain lives in `C#<c>#<TRAIL>#CHAIN`: `HEAD` (sequence, hash of the last link), one link per record
 *   `SEQ#<12 digits>` (text order is chain order, a gap is a missing number) and signed checkpoints
 *   `CHECKPOINT#<ISO time>`. Records and chain are apart, so the lists never read the chain and the sequencer's
 *   writes never meet the calls' writes on one item.
 */

/** The two audit trails: portal users' and client apps' calls, and devices' calls. */
export type ActivityTrail = 'user' | 'device';

export const ACTIVITY_TRAILS: readonly ActivityTrail[] = ['user', 'device'];

const TRAIL_TAG: Record<ActivityTrail, string> = { user: 'USER_ACTIVITY', device: 'DEVICE_ACTIVITY' };

/** The named index both trails' records share: the sequencer's sparse list of records not yet linked. */
export const PENDING_INDEX = { pending: 'gsi2' } as const;

const SEQUENCE_PREFIX = 'SEQ#';
const CHECKPOINT_PREFIX = 'CHECKPOINT#';

/** The trail's partition of records (the user activity and device activity entities build their keys on it). */
export const trailPartition = (trail: ActivityTrail, client: string) => `${tenantPrefix(client)}${TRAIL_TAG[trail]}`;
const chainPartition = (trail: ActivityTrail, client: string) => `${trailPartition(trail, client)}#CHAIN`;

/** `SEQ#` and the chain sequence (1 or more) zero-padded to 12 digits, so text order is number order. */
function sequenceSort(sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > 999_999_999_999) {
    throw new Error(`Not a chain sequence: ${String(sequence).slice(0, 40)}`);
  }
  return `${SEQUENCE_PREFIX}${String(sequence).padStart(12, '0')}`;
}

/** The chain of one trail of one tenant (see the note above). */
export const activityChainKeys = {
  /** Every record of the trail, in time order (a table Query; ISO times start with a digit, so nothing else matches). */
  records: (trail: ActivityTrail, client: string): { partition: string; sort: { between: [string, string] } } => ({
    partition: trailPartition(trail, client),
    sort: { between: ['0', ':'] },
  }),
  /** Where the record with this sort key sits (its partition is the trail's). */
  record: (trail: ActivityTrail, client: string, recordSort: string) => ({ pk: trailPartition(trail, client), sk: recordSort }),
  /** The sparse index keys a record carries until it is linked. */
  pendingKeys: (trail: ActivityTrail, client: string, recordSort: string) =>
    onIndex[PENDING_INDEX.pending](`${trailPartition(trail, client)}#PENDING`, recordSort),
  /** The records waiting to be linked, oldest first. */
  pending: (trail: ActivityTrail, client: string): ListKey => list(PENDING_INDEX.pending, `${trailPartition(trail, client)}#PENDING`),
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
  /** The time a checkpoint's sort key names (the verifier reports a checkpoint by it). */
  checkpointTimeOf: (sortKey: string): string => sortKey.slice(CHECKPOINT_PREFIX.length),
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
};

/**
 * The chain of an audit trail (lambdas/audit/trail/activity-chain.ts has the why), in the trail's `…#CHAIN`
 * partition: the head, one link per linked record, and signed checkpoints of the head. The verifier reads these from
 * a table someone may have tampered with: `claimed*` answer undefined for an item that does not read, so a damaged
 * link or checkpoint is reported as broken rather than failing the verification.
 */

const trailSchema = /* @__PURE__ */ onFirstUse(() => z.enum(ACTIVITY_TRAILS));

/** Where an activity record stands in its trail's chain: written, waiting on the pending index, linked. */
export const activityChainStateSchema = /* @__PURE__ */ onFirstUse(() => z.enum(['open', 'pending', 'linked']));

/** What a link's hash covers. */
export const auditLinkContentSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  chain_version: z.number(),
  client: z.string(),
  trail: trailSchema(),
  sequence: z.number(),
  previous_hash: z.string(),
  entry_hash: z.string(),
  /** The record's sort key in the trail's partition. */
  record: z.string(),
}));

export const auditLinkItemSchema = /* @__PURE__ */ onFirstUse(() => auditLinkContentSchema().extend({ hash: z.string() }));
export type AuditLinkItem = z.infer<ReturnType<typeof auditLinkItemSchema>>;

export function readAuditLink(item: TableItem): AuditLinkItem {
  return readItem('AuditLink', auditLinkItemSchema(), item);
}

/** The link a stored item claims to be, or undefined when it does not read as one (damaged). */
export function claimedAuditLink(item: TableItem): AuditLinkItem | undefined {
  return claimItem(auditLinkItemSchema(), item);
}

export function auditLinkToItem(link: AuditLinkItem): TableItem {
  return { ...activityChainKeys.link(link.trail, link.client, link.sequence), ...link };
}

/** Where a trail's chain ends. */
export const auditHeadItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional(),
  trail: trailSchema().optional(),
  sequence: z.number(),
  hash: z.string(),
  linked_at: z.string().optional(),
}));
export type AuditHeadItem = z.infer<ReturnType<typeof auditHeadItemSchema>>;

export function readAuditHead(item: TableItem): AuditHeadItem {
  return readItem('AuditHead', auditHeadItemSchema(), item);
}

/** The head a stored item claims, or undefined when it does not read as one. */
export function claimedAuditHead(item: TableItem): AuditHeadItem | undefined {
  return claimItem(auditHeadItemSchema(), item);
}

export function auditHeadToItem(trail: ActivityTrail, client: string, head: Omit<AuditHeadItem, 'client' | 'trail'>): TableItem {
  return { ...activityChainKeys.head(trail, client), client, trail, ...head };
}

/** What a checkpoint signs. */
export const auditCheckpointContentSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  chain_version: z.number(),
  client: z.string(),
  trail: trailSchema(),
  /** Links in the chain when signed (0: empty). */
  sequence: z.number(),
  /** The head's hash then. */
  hash: z.string(),
  checkpoint_at: z.string(),
  /** `checkpoint_at` of the checkpoint before, or null for the first. */
  previous_checkpoint_at: z.string().nullable(),
  key_id: z.string(),
}));
export type AuditCheckpointContent = z.infer<ReturnType<typeof auditCheckpointContentSchema>>;

export const auditCheckpointItemSchema = /* @__PURE__ */ onFirstUse(() => auditCheckpointContentSchema().extend({
  /** base64 of the signature over the canonical JSON of the content. */
  signature: z.string(),
  algorithm: z.string(),
}));
export type AuditCheckpointItem = z.infer<ReturnType<typeof auditCheckpointItemSchema>>;

export function readAuditCheckpoint(item: TableItem): AuditCheckpointItem {
  return readItem('AuditCheckpoint', auditCheckpointItemSchema(), item);
}

/** The checkpoint a stored item claims, or undefined when it does not read as one (damaged: it cannot be signed). */
export function claimedAuditCheckpoint(item: TableItem): AuditCheckpointItem | undefined {
  return claimItem(auditCheckpointItemSchema(), item);
}

export function auditCheckpointToItem(checkpoint: AuditCheckpointItem): TableItem {
  return { ...activityChainKeys.checkpoint(checkpoint.trail, checkpoint.client, checkpoint.checkpoint_at), ...checkpoint };
}

/** Present but not of its type: read as its own text, so a report can quote what was found. */
const asText = (ctx: { value: unknown }) => String(ctx.value);

/**
 * What the chain and retention write on an activity record beside the call it records (the call itself is
 * user-activity.ts' and device-activity.ts'): its place in the chain and the pending index, and retention's marks of a
 * deletion or destruction (a destroyed record's stub keeps these, its log id, time and entry hash, and nothing else).
 * The sequencer and the verifier read them from a table someone may have tampered with, so this read never fails:
 * each attribute reads on its own, one that is not of its type as missing, a sequence as NaN (a place that is no
 * sequence) and a retention state as its text (the verifier quotes it).
 */
export const auditRecordMarksItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional().catch(undefined),
  log_id: z.string().optional().catch(undefined),
  activity_time: z.string().optional().catch(undefined),
  chain_state: activityChainStateSchema().optional().catch(undefined),
  sequence: z.number().optional().catch(Number.NaN),
  /** Where the pending index places it, while it waits to be linked (`activityChainKeys.pendingKeys`). */
  gsi2pk: z.string().optional().catch(undefined),
  gsi2sk: z.string().optional().catch(undefined),
  /** A stub's copy of the entry hash its link holds. */
  entry_hash: z.string().optional().catch(undefined),
  retention_state: z.string().optional().catch(asText),
  deleted_at: z.string().optional().catch(undefined),
  destroyed_at: z.string().optional().catch(undefined),
  disposal_id: z.string().optional().catch(undefined),
}));
export type AuditRecordMarksItem = z.infer<ReturnType<typeof auditRecordMarksItemSchema>>;

export function readAuditRecordMarks(item: TableItem): AuditRecordMarksItem {
  return readItem('AuditRecordMarks', auditRecordMarksItemSchema(), item);
}

/**
 * How many of a trail's records retention has disposed of (`activityChainKeys.disposedCount`), so the trail's total
 * is read without reading its records. Moved by an atomic ADD in each disposal's transaction, which creates the item;
 * absent until the first disposal.
 */
export const auditDisposedCountItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional(),
  disposed_count: z.number(),
}));
export type AuditDisposedCountItem = z.infer<ReturnType<typeof auditDisposedCountItemSchema>>;

export function readAuditDisposedCount(item: TableItem): AuditDisposedCountItem {
  return readItem('AuditDisposedCount', auditDisposedCountItemSchema(), item);
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const auditHeadModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.auditHead,
  title: 'Audit chain head, per trail (`<TRAIL>`: `USER_ACTIVITY` or `DEVICE_ACTIVITY`)',
  module: 'audit-chain.ts',
  indexes: {},
  items: [{ example: () => activityChainKeys.head('user', EXAMPLE_CLIENT) }],
  accessPatterns: [],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const auditLinkModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.auditLink,
  title: 'Audit chain link',
  module: 'audit-chain.ts',
  indexes: {},
  items: [{ example: () => activityChainKeys.link('user', EXAMPLE_CLIENT, 1) }],
  accessPatterns: [
    { name: 'A trail\'s chain in order', serves: '`audit:verify`', builders: ['keys.activityChain.links'], example: () => activityChainKeys.links('user', EXAMPLE_CLIENT) },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const auditCheckpointModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.auditCheckpoint,
  title: 'Signed checkpoint of a trail',
  module: 'audit-chain.ts',
  indexes: {},
  items: [{ example: () => activityChainKeys.checkpoint('user', EXAMPLE_CLIENT, '<checkpoint_at>') }],
  accessPatterns: [
    { name: 'A trail\'s checkpoints in time order', serves: '`audit:verify`', builders: ['keys.activityChain.checkpoints'], example: () => activityChainKeys.checkpoints('user', EXAMPLE_CLIENT) },
  ],
}));

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const auditDisposedCountModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.auditDisposedCount,
  title: 'Records of a trail retention disposed of',
  module: 'audit-chain.ts',
  indexes: {},
  items: [{ example: () => activityChainKeys.disposedCount('user', EXAMPLE_CLIENT) }],
  accessPatterns: [],
}));
