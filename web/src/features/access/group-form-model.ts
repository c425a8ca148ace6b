import { GROUP_TAG_LIMIT } from '#shared/constants/limits.ts';
import { GroupRequest, tagValueAllowed, type Group, type TagDefinition } from '#shared/contract/entities/groups.ts';
import { GroupReference } from '#shared/contract/fields.ts';
import { formatIssues, MESSAGES } from '#shared/contract/messages.ts';

/** One row of the tag editor. */
export interface TagRow {
  key: string;
  value: string;
}

export { GROUP_TAG_LIMIT };

/** The rows of a stored group, or, for a new group, one row per required tag with its default value. */
export function initialTagRows(group: Group | undefined, definitions: readonly TagDefinition[]): TagRow[] {
  if (group !== undefined) return group.tags.map((tag) => ({ key: tag.tag_key, value: tag.tag_value }));
  return definitions
    .filter((definition) => definition.is_required)
    .map((definition) => ({ key: definition.tag_key, value: definition.default_value ?? '' }));
}

export type GroupFormResult = { ok: true; reference: string; body: GroupRequest } | { ok: false; lines: string[] };

/**
 * Checks a group before it is sent, with the contract's schema (at most 50 tags, unique keys, values of at most 255
 * characters) and, when the definitions are known, as the server will: every key defined, every value allowed.
 * Lines read `path: message` with the server's paths (`params.group_reference`, `body.tags.<i>.tag_value`).
 */
export function checkGroupForm(reference: string, rows: readonly TagRow[], definitions?: readonly TagDefinition[]): GroupFormResult {
  const lines: string[] = [];
  const ref = GroupReference.safeParse(reference);
  if (!ref.success) lines.push(...formatIssues(ref.error, 'params.group_reference'));
  const tags = rows.map((row) => ({ tag_key: row.key.trim(), tag_value: row.value }));
  const parsed = GroupRequest.safeParse({ tags });
  if (!parsed.success) lines.push(...formatIssues(parsed.error, 'body'));
  if (definitions !== undefined) {
    const byKey = new Map(definitions.map((definition) => [definition.tag_key, definition]));
    tags.forEach((tag, i) => {
      if (tag.tag_key === '') return;
      const definition = byKey.get(tag.tag_key);
      if (definition === undefined) lines.push(`body.tags.${i}.tag_key: Unknown tag`);
      else if (!tagValueAllowed(definition, tag.tag_value)) lines.push(`body.tags.${i}.tag_value: ${MESSAGES.tagValueNotAllowed}`);
    });
  }
  if (lines.length > 0 || !parsed.success) return { ok: false, lines: [...new Set(lines)] };
  return { ok: true, reference, body: parsed.data };
}

/** `key=value` (or the key alone when the value is empty): how a group's tag reads in a badge and in the CSV. */
export function tagLabel(tag: { tag_key: string; tag_value: string }): string {
  return tag.tag_value === '' ? tag.tag_key : `${tag.tag_key}=${tag.tag_value}`;
}
