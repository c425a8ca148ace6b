import type * as z from 'zod';
import { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import type { Actor } from '#shared/contract/entities/actor.ts';
import { PayloadComment } from '#shared/contract/entities/comments.ts';
import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { Role } from '#shared/contract/entities/roles.ts';
import { actorName } from '../../lib/actor-name.ts';
import { formatDateTime } from '../../lib/format.ts';
import { fieldLabel, valueLabel } from './field-labels.ts';

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
};

/** A record's fields as compared: storage attributes and answer-only fields left out, the contract's defaults filled. */
export function comparableRecord(entity: VersionedEntity, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fields = Object.fromEntries(Object.entries(record).filter(([name]) => !STORAGE_ATTRIBUTE.test(name) && !ANSWER_ONLY.has(name)));
  const parsed = ANSWER_SCHEMAS[entity]?.safeParse(fields);
  // Stored fields the contract does not name stay (shown, never hidden); its defaults fill what is absent.
  if (parsed?.success !== true) return fields;
  const filled = Object.fromEntries(Object.entries(parsed.data).filter(([name]) => !STORAGE_ATTRIBUTE.test(name) && !ANSWER_ONLY.has(name)));
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

/** Arrays of objects are matched by what names each item (a retention entry by its payload type), else by position. */
function elementKeys(items: readonly unknown[]): { key: string; label: (parentLabel: string) => string }[] {
  const byType = items.every((item) => isObject(item) && typeof item.payload_type === 'string');
  return items.map((item, index) => {
    if (byType) {
      const type = (item as { payload_type: string }).payload_type;
      return { key: type, label: (parentLabel) => `${parentLabel} › ${valueLabel('payload_type', type)}` };
    }
    return { key: String(index + 1), label: (parentLabel) => `${parentLabel} ${index + 1}` };
  });
}

/** Every leaf of a record, keyed by where it is, in the record's order. */
function leavesOf(record: Readonly<Record<string, unknown>>): Map<string, Leaf> {
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
 */
export function compareRecords(before: Readonly<Record<string, unknown>> | undefined, after: Readonly<Record<string, unknown>> | undefined): FieldRow[] {
  const earlier = before === undefined ? new Map<string, Leaf>() : leavesOf(before);
  const later = after === undefined ? new Map<string, Leaf>() : leavesOf(after);
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

/** How many rows of each change, for the comparison's summary line. */
export function changeCounts(rows: readonly FieldRow[]): Record<FieldChange, number> {
  const counts: Record<FieldChange, number> = { added: 0, removed: 0, changed: 0, same: 0 };
  for (const row of rows) counts[row.change] += 1;
  return counts;
}
