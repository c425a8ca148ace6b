import { tagValueAllowed, type TagDefinition } from '#shared/contract/entities/groups.ts';

/** What the review needs of a group: its reference and tags. */
export interface ReviewedGroup {
  group_reference: string;
  tags: ReadonlyArray<{ tag_key: string; tag_value: string }>;
}

/** A group that would break the definition, and why. */
export interface GroupConflict {
  group_reference: string;
  reason: string;
}

/** Conflict lines shown at most; the rest are counted in one closing line (the 4xx body stays small). */
export const MAX_CONFLICT_LINES = 50;

/**
 * Reviews existing groups against a new (or changed) tag definition (spec point 5: "a definition change that fails
 * review against existing groups applies only with force_update"). A group conflicts when it carries the tag with a
 * value the new enumeration does not allow (null = free text allows all, [] allows none), or when the tag becomes
 * required and the group does not carry it. Pure: the service loads the groups.
 */
export function reviewDefinition(
  tagKey: string,
  definition: Pick<TagDefinition, 'tag_values' | 'is_required'>,
  groups: readonly ReviewedGroup[],
): GroupConflict[] {
  const conflicts: GroupConflict[] = [];
  for (const group of groups) {
    const tag = group.tags.find((candidate) => candidate.tag_key === tagKey);
    if (tag === undefined) {
      if (definition.is_required) conflicts.push({ group_reference: group.group_reference, reason: `Required tag ${tagKey} is missing` });
      continue;
    }
    if (!tagValueAllowed(definition, tag.tag_value)) {
      const allowed = definition.tag_values?.length === 0 ? 'no value is allowed' : 'not in the allowed values';
      conflicts.push({
        group_reference: group.group_reference,
        reason: `Value ${JSON.stringify(tag.tag_value.slice(0, 60))} of tag ${tagKey} is ${allowed}`,
      });
    }
  }
  return conflicts;
}

/** The groups that carry a tag (a delete of its definition would orphan their values). */
export function groupsUsingTag(tagKey: string, groups: readonly ReviewedGroup[]): GroupConflict[] {
  return groups
    .filter((group) => group.tags.some((tag) => tag.tag_key === tagKey))
    .map((group) => ({ group_reference: group.group_reference, reason: `Uses tag ${tagKey}` }));
}

/** Control characters would split or garble a `path: message` line: a reference holding one shows `?` there. */
const printable = (text: string) => text.replace(/\p{Cc}/gu, '?');

/** `groups.<group_reference>: <why>` lines, capped, for the 409 body. */
export function conflictLines(conflicts: readonly GroupConflict[]): string[] {
  const lines = conflicts
    .slice(0, MAX_CONFLICT_LINES)
    .map((conflict) => printable(`groups.${conflict.group_reference}: ${conflict.reason}`));
  if (conflicts.length > MAX_CONFLICT_LINES) lines.push(`groups: ${conflicts.length - MAX_CONFLICT_LINES} more conflicting groups`);
  return lines;
}
