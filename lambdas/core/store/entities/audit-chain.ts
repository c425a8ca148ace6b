import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { ACTIVITY_TRAILS, keys, type ActivityTrail } from '../keys.ts';
import { claimItem, readItem } from './read-item.ts';

/**
 * The chain of an audit trail (lambdas/audit/trail/activity-chain.ts has the why), in the trail's `…#CHAIN`
 * partition: the head, one link per linked record, and signed checkpoints of the head. The verifier reads these from
 * a table someone may have tampered with: `claimed*` answer undefined for an item that does not read, so a damaged
 * link or checkpoint is reported as broken rather than failing the verification.
 */

const Trail = z.enum(ACTIVITY_TRAILS);

/** Where an activity record stands in its trail's chain: written, waiting on the pending index, linked. */
export const ActivityChainState = z.enum(['open', 'pending', 'linked']);

/** What a link's hash covers. */
export const AuditLinkContent = z.object({
  chain_version: z.number(),
  client: z.string(),
  trail: Trail,
  sequence: z.number(),
  previous_hash: z.string(),
  entry_hash: z.string(),
  /** The record's sort key in the trail's partition. */
  record: z.string(),
});
export type AuditLinkContent = z.infer<typeof AuditLinkContent>;

export const AuditLinkItem = AuditLinkContent.extend({ hash: z.string() });
export type AuditLinkItem = z.infer<typeof AuditLinkItem>;

export function readAuditLink(item: TableItem): AuditLinkItem {
  return readItem('AuditLink', AuditLinkItem, item);
}

/** The link a stored item claims to be, or undefined when it does not read as one (damaged). */
export function claimedAuditLink(item: TableItem): AuditLinkItem | undefined {
  return claimItem(AuditLinkItem, item);
}

export function auditLinkToItem(link: AuditLinkItem): TableItem {
  return { ...keys.activityChain.link(link.trail, link.client, link.sequence), ...link };
}

/** Where a trail's chain ends. */
export const AuditHeadItem = z.object({
  client: z.string().optional(),
  trail: Trail.optional(),
  sequence: z.number(),
  hash: z.string(),
  linked_at: z.string().optional(),
});
export type AuditHeadItem = z.infer<typeof AuditHeadItem>;

export function readAuditHead(item: TableItem): AuditHeadItem {
  return readItem('AuditHead', AuditHeadItem, item);
}

/** The head a stored item claims, or undefined when it does not read as one. */
export function claimedAuditHead(item: TableItem): AuditHeadItem | undefined {
  return claimItem(AuditHeadItem, item);
}

export function auditHeadToItem(trail: ActivityTrail, client: string, head: Omit<AuditHeadItem, 'client' | 'trail'>): TableItem {
  return { ...keys.activityChain.head(trail, client), client, trail, ...head };
}

/** What a checkpoint signs. */
export const AuditCheckpointContent = z.object({
  chain_version: z.number(),
  client: z.string(),
  trail: Trail,
  /** Links in the chain when signed (0: empty). */
  sequence: z.number(),
  /** The head's hash then. */
  hash: z.string(),
  checkpoint_at: z.string(),
  /** `checkpoint_at` of the checkpoint before, or null for the first. */
  previous_checkpoint_at: z.string().nullable(),
  key_id: z.string(),
});
export type AuditCheckpointContent = z.infer<typeof AuditCheckpointContent>;

export const AuditCheckpointItem = AuditCheckpointContent.extend({
  /** base64 of the signature over the canonical JSON of the content. */
  signature: z.string(),
  algorithm: z.string(),
});
export type AuditCheckpointItem = z.infer<typeof AuditCheckpointItem>;

export function readAuditCheckpoint(item: TableItem): AuditCheckpointItem {
  return readItem('AuditCheckpoint', AuditCheckpointItem, item);
}

/** The checkpoint a stored item claims, or undefined when it does not read as one (damaged: it cannot be signed). */
export function claimedAuditCheckpoint(item: TableItem): AuditCheckpointItem | undefined {
  return claimItem(AuditCheckpointItem, item);
}

export function auditCheckpointToItem(checkpoint: AuditCheckpointItem): TableItem {
  return { ...keys.activityChain.checkpoint(checkpoint.trail, checkpoint.client, checkpoint.checkpoint_at), ...checkpoint };
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
export const AuditRecordMarksItem = z.object({
  client: z.string().optional().catch(undefined),
  log_id: z.string().optional().catch(undefined),
  activity_time: z.string().optional().catch(undefined),
  chain_state: ActivityChainState.optional().catch(undefined),
  sequence: z.number().optional().catch(Number.NaN),
  /** Where the pending index places it, while it waits to be linked (`keys.activityChain.pendingKeys`). */
  gsi2pk: z.string().optional().catch(undefined),
  gsi2sk: z.string().optional().catch(undefined),
  /** A stub's copy of the entry hash its link holds. */
  entry_hash: z.string().optional().catch(undefined),
  retention_state: z.string().optional().catch(asText),
  deleted_at: z.string().optional().catch(undefined),
  destroyed_at: z.string().optional().catch(undefined),
  disposal_id: z.string().optional().catch(undefined),
});
export type AuditRecordMarksItem = z.infer<typeof AuditRecordMarksItem>;

export function readAuditRecordMarks(item: TableItem): AuditRecordMarksItem {
  return readItem('AuditRecordMarks', AuditRecordMarksItem, item);
}

/**
 * How many of a trail's records retention has disposed of (`keys.activityChain.disposedCount`), so the trail's total
 * is read without reading its records. Moved by an atomic ADD in each disposal's transaction, which creates the item;
 * absent until the first disposal.
 */
export const AuditDisposedCountItem = z.object({
  client: z.string().optional(),
  disposed_count: z.number(),
});
export type AuditDisposedCountItem = z.infer<typeof AuditDisposedCountItem>;

export function readAuditDisposedCount(item: TableItem): AuditDisposedCountItem {
  return readItem('AuditDisposedCount', AuditDisposedCountItem, item);
}
