import { GROUP_TAG_LIMIT } from '#shared/constants/limits.ts';
import { tagValueAllowed, type GroupTag, type TagDefinition } from '#shared/contract/entities/groups.ts';
import { itemsBetween, MESSAGES } from '#shared/contract/messages.ts';

export const UNKNOWN_TAG = 'Unknown tag';

/** The result of checking a group's tags against the tenant's definitions: the tags to store, or 400 lines. */
export type ResolvedTags = { ok: true; tags: GroupTag[] } | { ok: false; lines: string[] };

/**
 * Checks a group's requested tags against the tenant's tag definitions (spec point 5) and fills required tags:
 * - a key without a definition: `body.tags.<i>.tag_key: Unknown tag`;
 * - a value outside the enumeration (null = free text, [] = none allowed): `body.tags.<i>.tag_value: …`;
 * - a required tag the request leaves out is added with the definition's default value;
 * - after filling, still at most 50 tags.
 * Pure: the contract already checked shape, uniqueness, count and value length of the request itself.
 */
export function resolveGroupTags(requested: readonly GroupTag[], definitions: readonly TagDefinition[]): ResolvedTags {
  const byKey = new Map(definitions.map((definition) => [definition.tag_key, definition]));
  const lines: string[] = [];
  requested.forEach((tag, i) => {
    const definition = byKey.get(tag.tag_key);
    if (definition === undefined) lines.push(`body.tags.${i}.tag_key: ${UNKNOWN_TAG}`);
    else if (!tagValueAllowed(definition, tag.tag_value)) lines.push(`body.tags.${i}.tag_value: ${MESSAGES.tagValueNotAllowed}`);
  });
  if (lines.length > 0) return { ok: false, lines };

  const present = new Set(requested.map((tag) => tag.tag_key));
  const filled = definitions
    .filter((definition) => definition.is_required && !present.has(definition.tag_key))
    .filter((definition) => typeof definition.default_value === 'string')
    .map((definition) => ({ tag_key: definition.tag_key, tag_value: definition.default_value as string }));
  const tags = [...requested.map((tag) => ({ tag_key: tag.tag_key, tag_value: tag.tag_value })), ...filled];
  if (tags.length > GROUP_TAG_LIMIT) return { ok: false, lines: [`body.tags: ${itemsBetween(0, GROUP_TAG_LIMIT)}`] };
  return { ok: true, tags };
}
