import { createHash } from 'node:crypto';
import type { Actor } from '#shared/contract/entities/actor.ts';
import type { RecordVersion, VersionChange, VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { canonicalJson, toStorableJson, type Json } from '../trail/canonical-json.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import type { Caller } from '#core/http/caller.ts';
import type { TableItem, TransactOperation } from '#core/ports/table-store.ts';
import { recordVersionKeys } from '#core/store/entities/record-version.ts';
import { recordItem, type TrailRecord } from '../trail/activity-log.ts';

/**
 * Versions of changed records (docs/compliance.md, SEC 17a-4(f)'s audit-trail alternative: whatever re-creates the
 * original record and each interim version). A write that changes or deletes a versioned record adds these operations
 * to ITS OWN transaction, so the version it replaced exists if and only if the change happened:
 *
 * - a put of the version (the record exactly as it was stored, who replaced it, when, the activity record of the call)
 *   in the record's own partition, conditional on being new: a version is never overwritten;
 * - an update of the call's `open` activity record adding the version's SHA-256 (`version_sha256_<digest prefix>`),
 *   conditional on the record still being open. The sequencer links the record only once closed, so its entry hash,
 *   and with it the hash chain, covers the version's digest: a version altered later no longer matches
 *   (verify-chain.ts recomputes each).
 *
 * A write made outside any call (a job recording new hits, a device authenticating under a new holder, a migration
 * importing a row) has no open record to add to: it names its own activity record (`record`), which is put in the
 * same transaction, complete (`pending`), with the digests on it, so the chain covers those versions too.
 */

/** The attribute prefix, on an activity record, of the versions that call kept. */
export const VERSION_DIGEST_PREFIX = 'version_sha256_';

/** What an activity record says of one version it kept: where it is and its digest. */
export interface VersionDigest {
  pk: string;
  sk: string;
  sha256: string;
}

/** One record a write is about to change: its kind, its reference as the history endpoint names it, and it as stored. */
export interface ReplacedRecord {
  entity: VersionedEntity;
  reference: string;
  /** The stored item as read before the change (keys included). */
  stored: TableItem;
  change: VersionChange;
  /**
   * Attributes a version must never hold (a sealed password, a wrapped key): each one the stored item has is kept as
   * the marker given instead (e.g. `(kept secret, changed)`), so the version still says the secret was set and
   * whether this change replaced it, and its value never leaves the record. Applied before the digest.
   */
  redact?: Readonly<Record<string, string>>;
}

/** The stored item with each attribute named by `redact` that it has replaced by its marker. */
function withoutSecrets(stored: TableItem, redact: Readonly<Record<string, string>> | undefined): TableItem {
  if (redact === undefined) return stored;
  const kept: TableItem = { ...stored };
  for (const [attribute, marker] of Object.entries(redact)) if (Object.hasOwn(kept, attribute)) kept[attribute] = marker;
  return kept;
}

/**
 * Who makes the change: an API call's caller (its principal and its `open` activity record), or an act outside any
 * call (`actor`: `jobActor(...)` or the device) with the activity record of that act (`record`: its trail, tenant and
 * entry), written with the versions and carrying their digests.
 */
export type VersionWriter = Pick<Caller, 'principal' | 'activity'> & {
  deps: Pick<Caller['deps'], 'clock'>;
  actor?: Actor;
  record?: Pick<TrailRecord, 'trail' | 'client' | 'entry' | 'requestId'>;
};

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The SHA-256 over a version's canonical JSON, less its own digest. */
export function versionDigest(version: Omit<RecordVersion, 'sha256'> & { sha256?: string }): string {
  const { sha256: _own, ...content } = version;
  return sha256(canonicalJson(toStorableJson(content) ?? null));
}

/** The transaction operations that keep the versions the caller's write replaces (see the module note). */
export function versionWrites(caller: VersionWriter, replaced: readonly ReplacedRecord[]): TransactOperation[] {
  if (replaced.length === 0) return [];
  const now = caller.deps.clock.now();
  const replacedAt = now.toISOString();
  // The act's own record, when no call's record is open to take the digests.
  const own = caller.activity === undefined && caller.record !== undefined ? recordItem({ ...caller.record, state: 'pending' }, now) : undefined;
  const logId = caller.activity?.logId ?? own?.ref.logId;
  const operations: TransactOperation[] = [];
  const digests: Record<string, VersionDigest> = {};
  replaced.forEach(({ entity, reference, stored, change, redact }, index) => {
    const record = toStorableJson(withoutSecrets(stored, redact)) as { [attribute: string]: Json };
    const content: Omit<RecordVersion, 'sha256'> = {
      kind: entity,
      reference,
      change,
      replaced_at: replacedAt,
      replaced_by: caller.actor?.reference ?? actorOf(caller.principal),
      replaced_by_actor: caller.actor ?? actorRecordOf(caller.principal),
      ...(logId === undefined ? {} : { log_id: logId }),
      record,
    };
    const digest = versionDigest(content);
    // The log id makes the key unique per call; the index, per record within one call.
    const placement = recordVersionKeys.item(stored, replacedAt, `${logId ?? digest.slice(0, 26)}#${index}`);
    operations.push({ kind: 'put', item: { ...placement, ...content, sha256: digest }, condition: { kind: 'item-not-exists' } });
    digests[`${VERSION_DIGEST_PREFIX}${digest.slice(0, 16)}`] = { pk: placement.pk, sk: placement.sk, sha256: digest };
  });
  if (caller.activity !== undefined) {
    operations.push({
      kind: 'update',
      key: caller.activity.key,
      update: { set: digests },
      condition: { kind: 'expression', expression: '#state = :open', names: { '#state': 'chain_state' }, values: { ':open': 'open' } },
    });
  } else if (own !== undefined) {
    operations.push({ kind: 'put', item: { ...own.item, ...digests }, condition: { kind: 'item-not-exists' } });
  }
  return operations;
}

/** The version digests an activity record carries. */
export function versionDigestsOf(record: TableItem): VersionDigest[] {
  return Object.entries(record).flatMap(([attribute, value]) => {
    if (!attribute.startsWith(VERSION_DIGEST_PREFIX) || value === null || typeof value !== 'object') return [];
    const { pk, sk, sha256: digest } = value as Partial<VersionDigest>;
    return typeof pk === 'string' && typeof sk === 'string' && typeof digest === 'string' ? [{ pk, sk, sha256: digest }] : [];
  });
}
