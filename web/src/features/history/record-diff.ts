import type * as z from 'zod';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { AccountDefaults, AccountMigrationConfig } from '#shared/contract/entities/account.ts';
import { ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { Group, TagDefinition } from '#shared/contract/entities/groups.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { Role } from '#shared/contract/entities/roles.ts';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime } from '../../lib/format.ts';
import { fieldLabel as labelOf, valueLabel } from './field-labels.ts';

/**
 * A record's fields compared between two of its states (a version and the one that replaced it, any two versions, or
 * a version and the record now), field by field: added, removed, changed or the same. Nested values (a role's rules, a
 * retention policy's per-type periods) are compared leaf by leaf, each named by its labels ("Rule 2 › Actions",
 * "Recordings › Call › Delete after (days)"); people are named as every screen names them; storage keys are left out.
 */

export type FieldChange = 'added' | 'removed' | 'changed' | 'same';

/** One leaf of a record as shown: its words, and for a list its items' words (compared item by item). */
export interface ShownValue {
  text: string;
  items?: string[];
}

export interface FieldRow {
  /** Where the leaf is in the record (stable across states: `permissions.1.actions_matching`). */
  key: string;
  label: string;
  change: FieldChange;
  before?: ShownValue;
  after?: ShownValue;
}

/**
 * Storage attributes, never fields of the record as the firm knows it: the table's keys and index keys, the item's
 * entity tag, an account setting's name, and the tenant every key carries.
 */
const STORAGE_ATTRIBUTE = /^(?:pk|sk|entity|setting|client|gsi\d+(?:pk|sk))$/;

/** Fields the API adds to its answer that are never stored (so never in a version): left out of both sides. */
const ANSWER_ONLY = new Set(['object_lock']);

/**
 * The contract's entity per kind, where the web has one: a stored version is read as the API would answer it (its
 * defaults filled, so a field absent as stored and its default as answered are not reported as a change). A kind
 * without one here is compared as stored, less its storage attributes.
 */
const ANSWER_SCHEMAS: Partial<Record<VersionedEntity, z.ZodType<Record<string, unknown>>>> = {
  comment: PayloadComment,
  role: Role,
  'retention-policy': RetentionPolicy,
  group: Group,
  'tag-definition': TagDefinition,
  'device-user': DeviceUser,
  'client-app': ClientAppConfiguration,
  'account-defaults': AccountDefaults,
  'migration-settings': AccountMigrationConfig,
};

/**
 * The markers a transfer configuration's version holds instead of each password it had (the backend's
 * `SECRET_CHANGED` / `SECRET_UNCHANGED`, lambdas/transfers/configs/transfer-configs.ts): whether the change that
 * replaced the version replaced the password. The record now says only that one is set (`SECRET_SET`).
 */
export const SECRET_CHANGED = '(kept secret, changed)';
export const SECRET_UNCHANGED = '(kept secret, unchanged)';
export const SECRET_SET = '(kept secret)';
const SECRET_MARKERS = new Set([SECRET_CHANGED, SECRET_UNCHANGED, SECRET_SET]);

/** A transfer configuration's passwords: the answer's "has one" flag and the stored field a version marks. */
const TRANSFER_SECRETS = [
  { flag: 'has_zip_password', field: 'sealed_zip_password' },
  { flag: 'has_sftp_password', field: 'sealed_sftp_password' },
] as const;

/**
 * Per kind, what of a stored item or an API answer is not the record a person edits, so is left out of both sides:
 * counters and progress others move without changing the record (a group's stats, a hold's storage-lock walk, a
 * policy's apply run), what the answer works out on reading (a hold's coverage, `held_by`, an item's overdue flag), and
 * storage bookkeeping (a transfer configuration's schedule name and write revision). A version is still kept whole by
 * the server; this only keeps the comparison to the record's own fields, so noise is never shown as a change.
 */
const NOT_THE_RECORD: Partial<Record<VersionedEntity, (name: string) => boolean>> = {
  group: (name) => name === 'stats' || name.startsWith('stats_'),
  'legal-hold': (name) => ['coverage', 'sync_id', 'sync_state', 'sync_position', 'objects_synced', 'sync_error', 'retention_state', 'deleted_at'].includes(name),
  'device-user': (name) => ['held_by', 'retention_state', 'deleted_at', 'destroyed_at'].includes(name),
  'transfer-config': (name) => ['external_id', 'schedule_name', 'revision', 'created_at'].includes(name),
  'supervision-policy': (name) => ['last_apply', 'apply_lease_until', 'apply_run'].includes(name),
  'supervision-item': (name) => ['history', 'is_overdue', 'policy_references'].includes(name),
};

/**
 * A device's assignment is who holds it and in which group: its version is the whole device item (kept by the
 * device's sign-in when they change), of which only these fields are the assignment; the rest (last seen, telemetry,
 * sign-in times) moves on every sign-in and is not what changed.
 */
const ASSIGNMENT_FIELDS = ['device_user_reference', 'first_name', 'surname', 'email', 'group'];

/** The answer's "a password is set" flags as the field a version marks, so both sides name the same field. */
function secretsAsStored(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  for (const { flag, field } of TRANSFER_SECRETS) {
    if (!Object.hasOwn(out, flag)) continue;
    const set = out[flag] === true;
    delete out[flag];
    if (set && !Object.hasOwn(out, field)) out[field] = SECRET_SET;
  }
  return out;
}

/** A record's fields as compared: storage attributes and answer-only fields left out, the contract's defaults filled. */
export function comparableRecord(entity: VersionedEntity, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const notTheRecord = NOT_THE_RECORD[entity] ?? (() => false);
  const kept = ([name]: [string, unknown]) =>
    !STORAGE_ATTRIBUTE.test(name) && !ANSWER_ONLY.has(name) && !notTheRecord(name) && (entity !== 'device-assignment' || ASSIGNMENT_FIELDS.includes(name));
  const shaped = entity === 'transfer-config' ? secretsAsStored(record) : record;
  const fields = Object.fromEntries(Object.entries(shaped).filter(kept));
  const parsed = ANSWER_SCHEMAS[entity]?.safeParse(fields);
  // Stored fields the contract does not name stay (shown, never hidden); its defaults fill what is absent.
  if (parsed?.success !== true) return fields;
  const filled = Object.fromEntries(Object.entries(parsed.data).filter(kept));
  return { ...fields, ...filled };
}

interface Leaf {
  label: string;
  /** What is compared: the value as stored (for a person, the reference and the name kept with it). */
  raw: string;
  shown: ShownValue;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isActor = (value: unknown): value is Actor => isObject(value) && typeof value.reference === 'string' && typeof value.kind === 'string';

/** One plain value in words. */
function wordsOf(field: string, value: unknown): string {
  if (value === null || value === undefined) return 'Not set';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return ISO_TIME.test(value) ? formatDateTime(value) : value === '' ? '(empty)' : valueLabel(field, value);
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * Arrays of objects are matched by what names each item (a retention entry by its payload type, a group's tag by its
 * key), else by position.
 */
function elementKeys(items: readonly unknown[]): { key: string; label: (parentLabel: string) => string }[] {
  const byType = items.every((item) => isObject(item) && typeof item.payload_type === 'string');
  const byTagKey = items.every((item) => isObject(item) && typeof item.tag_key === 'string');
  return items.map((item, index) => {
    if (byType) {
      const type = (item as { payload_type: string }).payload_type;
      return { key: type, label: (parentLabel) => `${parentLabel} › ${valueLabel('payload_type', type)}` };
    }
    if (byTagKey) {
      const tagKey = (item as { tag_key: string }).tag_key;
      return { key: tagKey, label: (parentLabel) => `${parentLabel} › ${tagKey}` };
    }
    return { key: String(index + 1), label: (parentLabel) => `${parentLabel} ${index + 1}` };
  });
}

/** Every leaf of a record, keyed by where it is, in the record's order. */
function leavesOf(record: Readonly<Record<string, unknown>>, entity: VersionedEntity | undefined): Map<string, Leaf> {
  const fieldLabel = (name: string) => labelOf(name, entity);
  const leaves = new Map<string, Leaf>();
  const visit = (object: Readonly<Record<string, unknown>>, path: string, labelPrefix: string) => {
    for (const [name, value] of Object.entries(object)) {
      const key = path === '' ? name : `${path}.${name}`;
      const own = fieldLabel(name);
      const label = labelPrefix === '' ? own : `${labelPrefix} › ${own}`;
      // A person: `updated_by` (their stable reference) and `updated_by_actor` (their name then) are one field.
      if (name.endsWith('_actor') && isActor(value)) {
        const base = name.slice(0, -'_actor'.length);
        if (base in object) continue;
        const baseLabel = labelPrefix === '' ? fieldLabel(base) : `${labelPrefix} › ${fieldLabel(base)}`;
        leaves.set(path === '' ? base : `${path}.${base}`, { label: baseLabel, raw: JSON.stringify([value.reference, value]), shown: { text: actorName(value, value.reference) } });
        continue;
      }
      const actor = object[`${name}_actor`];
      if (typeof value === 'string' && isActor(actor)) {
        leaves.set(key, { label, raw: JSON.stringify([value, actor]), shown: { text: actorName(actor, value) } });
        continue;
      }
      if (typeof value === 'string' && /_by$/.test(name) && actor === undefined) {
        leaves.set(key, { label, raw: JSON.stringify(value), shown: { text: actorName(undefined, value) } });
        continue;
      }
      visitValue(name, value, key, label);
    }
  };
  const visitValue = (name: string, value: unknown, key: string, label: string) => {
    if (isObject(value)) {
      visit(value, key, label);
      return;
    }
    if (Array.isArray(value)) {
      if (value.length > 0 && value.every(isObject)) {
        // Items are named by their position ("Rule 2") or what they are ("Recordings › Call"), not the list's name twice.
        elementKeys(value).forEach(({ key: itemKey, label: itemLabel }, index) => visit(value[index] as Record<string, unknown>, `${key}.${itemKey}`, itemLabel(label)));
        return;
      }
      const items = value.map((item) => wordsOf(name, item));
      leaves.set(key, { label, raw: JSON.stringify(value), shown: { text: items.length === 0 ? 'None' : items.join(', '), items } });
      return;
    }
    leaves.set(key, { label, raw: JSON.stringify(value ?? null), shown: { text: wordsOf(name, value) } });
  };
  visit(record, '', '');
  return leaves;
}

/**
 * The rows comparing two states of a record, in the later state's order with fields only the earlier had after them.
 * `before` or `after` undefined: the record did not exist on that side (deleted), so every field is removed or added.
 * `entity`: the record's kind, where a field name means another thing in it (field-labels.ts KIND_FIELD_LABELS).
 */
export function compareRecords(
  before: Readonly<Record<string, unknown>> | undefined,
  after: Readonly<Record<string, unknown>> | undefined,
  entity?: VersionedEntity,
): FieldRow[] {
  const earlier = before === undefined ? new Map<string, Leaf>() : leavesOf(before, entity);
  const later = after === undefined ? new Map<string, Leaf>() : leavesOf(after, entity);
  const keys = [...later.keys(), ...[...earlier.keys()].filter((key) => !later.has(key))];
  return keys.map((key) => {
    const was = earlier.get(key);
    const now = later.get(key);
    const change: FieldChange = was === undefined ? 'added' : now === undefined ? 'removed' : was.raw === now.raw ? 'same' : 'changed';
    return {
      key,
      label: (now ?? was)?.label ?? key,
      change,
      ...(was === undefined ? {} : { before: was.shown }),
      ...(now === undefined ? {} : { after: now.shown }),
    };
  });
}

/**
 * A password both sides have is never compared by value (a version holds only a marker): whether it changed between
 * the two is what the versions between them say, each marking whether the change that replaced it replaced the
 * password. `between`: the records of the versions from the earlier side up to, not including, the later side.
 */
export function withSecretsSettled(rows: readonly FieldRow[], between: readonly Readonly<Record<string, unknown>>[]): FieldRow[] {
  return rows.map((row) => {
    if (row.before === undefined || row.after === undefined || !SECRET_MARKERS.has(row.before.text) || !SECRET_MARKERS.has(row.after.text)) return row;
    const changed = between.some((record) => record[row.key] === SECRET_CHANGED);
    return { ...row, change: changed ? 'changed' : 'same' };
  });
}

/** How many rows of each change, for the comparison's summary line. */
export function changeCounts(rows: readonly FieldRow[]): Record<FieldChange, number> {
  const counts: Record<FieldChange, number> = { added: 0, removed: 0, changed: 0, same: 0 };
  for (const row of rows) counts[row.change] += 1;
  return counts;
}
