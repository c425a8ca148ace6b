import * as z from 'zod';
import { Actor } from './actor.ts';
import { Timestamp } from './common.ts';

/**
 * The kinds of record whose every change keeps the version it replaced (docs/compliance.md, SEC 17a-4(f) audit-trail
 * alternative): `GET history/{entity}/{reference}` names one of these. Grows as more write paths keep versions.
 */
export const VERSIONED_ENTITIES = [
  'comment',
  'role',
  'retention-policy',
  'legal-hold',
  'group',
  'tag-definition',
  'device-user',
  'device-assignment',
  'transfer-config',
  'client-app',
  'account-defaults',
  'migration-settings',
  'supervision-policy',
  'supervision-item',
] as const;
export const VersionedEntity = z.enum(VERSIONED_ENTITIES);
export type VersionedEntity = z.infer<typeof VersionedEntity>;

/** What a change did to the record: the version is the record as it was before that change. */
export const VersionChange = z.enum(['updated', 'deleted']);
export type VersionChange = z.infer<typeof VersionChange>;

/**
 * One earlier version of a record: the record exactly as it was stored before a change (`record`), who made the
 * change and when, the activity record of the call that made it (`log_id`) and the SHA-256 (hex) over the version's
 * canonical JSON, which that activity record also carries, so the audit trail's hash chain covers it.
 */
export const RecordVersion = z.object({
  /** The record's kind (`entity` in the history path). */
  kind: VersionedEntity,
  reference: z.string(),
  change: VersionChange,
  /** When the change was made: the time this version stopped being the record. */
  replaced_at: Timestamp,
  /** The stable reference of who made the change, and who they were then. */
  replaced_by: z.string(),
  replaced_by_actor: Actor,
  /** The activity record of the call that made the change (absent for a change made outside an API call). */
  log_id: z.string().optional(),
  /** The record as it was: its stored attributes (keys included), exactly. */
  record: z.record(z.string(), z.unknown()),
  sha256: z.string(),
});
export type RecordVersion = z.infer<typeof RecordVersion>;
