import { createHash } from 'node:crypto';
import { UserActivity } from '#shared/contract/entities/activity.ts';
import type { TableItem } from '../ports/table-store.ts';
import { TABLE_KEYS } from '../store/table-definition.ts';
import { canonicalJson, toStorableJson, type Json } from './canonical-json.ts';

/**
 * One link of a tenant's user-activity chain (DESIGN.md §8). A record's `hash` is SHA-256 (hex) over the canonical
 * JSON of everything it stores except its keys and the hash itself, and that content includes `previous_hash`,
 * `sequence` and `client`: editing, adding or removing any attribute, moving a record to another place or tenant,
 * or deleting one is visible to `verifyChain`.
 */

/** `previous_hash` of record 1. */
export const GENESIS_HASH = '0'.repeat(64);

/** Recorded in every record, so a later change of the hashed layout can be told apart from tampering. */
export const CHAIN_VERSION = 1;

/** Where a chain ends: the head item, or a record. */
export interface ChainLink {
  sequence: number;
  hash: string;
}

/** Stored attributes that are placement (keys, entity tag) or the hash itself, not hashed content. */
const UNHASHED = new Set<string>([
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  TABLE_KEYS.entityAttribute,
  ...TABLE_KEYS.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  'hash',
]);

/** The hashed content of a stored record: every attribute but its placement and the hash. */
export type RecordContent = { [attribute: string]: Json };

export function hashContent(content: RecordContent): string {
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

/** What a stored item claims as content (the part its hash covers). */
export function contentOf(item: TableItem): RecordContent {
  const content: RecordContent = {};
  for (const [attribute, value] of Object.entries(item)) {
    if (!UNHASHED.has(attribute)) content[attribute] = value as Json;
  }
  return content;
}

/** What the activity recorder is given: the contract's UserActivity without the fields the log assigns. */
const Entry = UserActivity.omit({ log_id: true });

export interface RecordInput {
  client: string;
  sequence: number;
  previousHash: string;
  logId: string;
  /** The call's activity (UserActivity without `log_id`). */
  entry: unknown;
  /** The request that was recorded, to find its log lines. */
  requestId?: string;
}

/**
 * The content and hash of a new record. The entry is read through the contract (defaults applied, unknown fields
 * dropped); an entry the contract refuses is still recorded as given (`entry_invalid: true`), because losing an
 * audit record is worse than keeping an odd one. Chain fields are written last, so an entry cannot override them.
 */
export function buildRecord(input: RecordInput): { content: RecordContent; hash: string } {
  const parsed = Entry.safeParse(input.entry);
  const fields = toStorableJson(parsed.success ? parsed.data : input.entry);
  const content: RecordContent = {};
  if (fields !== null && typeof fields === 'object' && !Array.isArray(fields)) {
    for (const [attribute, value] of Object.entries(fields)) {
      if (!UNHASHED.has(attribute)) content[attribute] = value;
    }
  }
  if (!parsed.success) content.entry_invalid = true;
  Object.assign(content, {
    log_id: input.logId,
    client: input.client,
    sequence: input.sequence,
    previous_hash: input.previousHash,
    chain_version: CHAIN_VERSION,
    ...(input.requestId === undefined ? {} : { request_id: input.requestId }),
  });
  return { content, hash: hashContent(content) };
}

/** The chain head as stored, or undefined when the item is missing or not a head. */
export function linkOfHead(item: TableItem | undefined): ChainLink | undefined {
  if (item === undefined) return undefined;
  const { sequence, hash } = item;
  if (typeof sequence !== 'number' || typeof hash !== 'string') return undefined;
  return { sequence, hash };
}
