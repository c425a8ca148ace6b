import { createHash } from 'node:crypto';
import type * as z from 'zod';
import type { TableItem } from '../../core/ports/table-store.ts';
import type { ActivityTrail } from '../../core/store/keys.ts';
import { TABLE_KEYS } from '../../core/store/table-definition.ts';
import { canonicalJson, type Json } from './canonical-json.ts';
import { claimedAuditHead, type activityChainStateSchema } from '../../core/store/entities/audit-chain.ts';

/**
 * The hashes of an audit trail (DESIGN.md §8), after Certificate Transparency: a call appends its record (a leaf),
 * and the sequencer later integrates records in batches, giving each a link that names the record by its entry hash
 * and the link before it by its hash.
 *
 * - `entry_hash` = SHA-256 (hex) over the canonical JSON of what the record stores, less its placement (keys, entity,
 *   index keys), the sequencer's bookkeeping (`chain_state`, `sequence`) and retention's marks of a deletion
 *   (`RETENTION_MARKS`, checked against their disposal record instead): an edited, added or removed field shows.
 * - a link's `hash` = SHA-256 over the canonical JSON of the link's content (version, client, trail, sequence, the
 *   previous link's hash, the entry hash and the record's sort key): a replaced, moved or re-pointed link shows.
 */

/** `previous_hash` of link 1, and the hash of an empty chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** Recorded in every link, so a later change of the hashed layout can be told apart from tampering. */
export const CHAIN_VERSION = 2;

/** Where a chain ends: the head item, or a link. */
export interface ChainLink {
  sequence: number;
  hash: string;
}

/** Where a record stands: `open` (a write's record, its outcome to come), `pending` (complete), `linked`. */
export type ChainState = z.infer<ReturnType<typeof activityChainStateSchema>>;

/** What retention writes on a record it deleted, beside the content the entry hash covers. */
export const RETENTION_MARKS = ['retention_state', 'deleted_at', 'disposal_id'] as const;

/** Stored attributes that are placement or the sequencer's bookkeeping, not what the call recorded. */
const UNHASHED = new Set<string>([
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  TABLE_KEYS.entityAttribute,
  ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  'chain_state',
  'sequence',
  // Retention's marks on a record it deleted (docs/decisions.md "Audit trail", "Records retention disposes of"): the
  // verifier checks them against the disposal record they name instead.
  ...RETENTION_MARKS,
]);

/** The hashed content of a record: every attribute but its placement and bookkeeping. */
export type RecordContent = { [attribute: string]: Json };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What a stored record says it recorded (the part its entry hash covers). */
export function contentOf(item: TableItem): RecordContent {
  const content: RecordContent = {};
  for (const [attribute, value] of Object.entries(item)) {
    if (!UNHASHED.has(attribute)) content[attribute] = value as Json;
  }
  return content;
}

/** Whether an attribute name may be written as record content (placement and bookkeeping may not). */
export const isContentAttribute = (attribute: string): boolean => !UNHASHED.has(attribute);

export function entryHash(item: TableItem): string {
  return sha256(canonicalJson(contentOf(item)));
}

/** The content of a link: everything its hash covers. */
export interface LinkContent {
  chain_version: number;
  client: string;
  trail: ActivityTrail;
  sequence: number;
  previous_hash: string;
  entry_hash: string;
  /** The record's sort key in the trail's partition. */
  record: string;
}

export function linkHash(content: LinkContent): string {
  return sha256(canonicalJson({ ...content }));
}

/** The chain head as stored, or undefined when the item is missing or not a head. */
export function linkOfHead(item: TableItem | undefined): ChainLink | undefined {
  const head = item === undefined ? undefined : claimedAuditHead(item);
  return head === undefined ? undefined : { sequence: head.sequence, hash: head.hash };
}
