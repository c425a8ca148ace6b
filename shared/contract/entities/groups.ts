import * as z from 'zod';
import { GROUP_TAG_LIMIT } from '../../constants/limits.ts';
import { GroupReference, TagKey, TagValue, text } from '../fields.ts';
import { TAG_VALUES_MAX } from '../bounds.ts';
import { itemsAtMost, itemsBetween, MESSAGES } from '../messages.ts';
import { Audited } from './common.ts';

export const GroupTag = z.strictObject({ tag_key: TagKey, tag_value: TagValue });
export type GroupTag = z.infer<typeof GroupTag>;

const ServiceStats = z.object({
  used_licenses: z.int().min(0),
  expected_devices: z.int().min(0),
  active_devices: z.int().min(0),
  active_users: z.int().min(0),
});

export const GroupStats = z.object({
  device_users: z.int().min(0),
  expected_devices: z.int().min(0),
  actual_devices: z.int().min(0),
  services: z.record(z.string(), ServiceStats).default({}),
});

export const Group = Audited.extend({
  group_reference: z.string(),
  tags: z.array(z.object({ tag_key: z.string(), tag_value: z.string() })).default([]),
  stats: GroupStats.optional(),
});
export type Group = z.infer<typeof Group>;

/**
 * Create or replace a group: at most 50 tags, unique by key. Each value is checked against its tag definition
 * by the service (which holds the definitions).
 */
export const GroupRequest = z.strictObject({
  /** The path's group_reference, which the spec's entity carries: may be repeated here, refused when it differs. */
  group_reference: GroupReference.optional(),
  tags: z
    .array(GroupTag)
    .max(GROUP_TAG_LIMIT, { error: itemsBetween(0, GROUP_TAG_LIMIT) })
    .refine((tags) => new Set(tags.map((tag) => tag.tag_key)).size === tags.length, { error: MESSAGES.unique })
    .default([]),
});
export type GroupRequest = z.infer<typeof GroupRequest>;

/**
 * A tag definition. `tag_values` null means free text; an empty list means no value allowed; at most 1000 values
 * (our bound: 1000 values of 255 characters fill about 256 KB of the 400 KB item).
 * A required tag needs a default value and a non-empty value list.
 */
export const TagDefinition = Audited.extend({
  tag_key: z.string(),
  tag_values: z.array(z.string()).nullable(),
  is_required: z.boolean().default(false),
  default_value: z.string().nullable().optional(),
});
export type TagDefinition = z.infer<typeof TagDefinition>;

export const TagDefinitionRequest = z
  .strictObject({
    /** The path's tag_key, which the spec's entity carries: may be repeated here, refused when it differs. */
    tag_key: TagKey.optional(),
    tag_values: z
      .array(TagValue)
      .max(TAG_VALUES_MAX, { error: itemsAtMost(TAG_VALUES_MAX) })
      .nullable()
      .refine((values) => values === null || new Set(values).size === values.length, { error: MESSAGES.unique }),
    is_required: z.boolean().default(false),
    default_value: TagValue.nullable().optional(),
    /** Apply even if existing groups fail review against the new definition. */
    force_update: z.boolean().default(false),
    description: text(0, 1000).optional(),
  })
  .superRefine((definition, ctx) => {
    if (definition.is_required) {
      const hasValues = definition.tag_values !== null && definition.tag_values.length > 0;
      if (!hasValues || definition.default_value === undefined || definition.default_value === null) {
        ctx.addIssue({ code: 'custom', message: MESSAGES.requiredTagDefinition, path: ['default_value'] });
      }
    }
    if (
      definition.default_value !== undefined &&
      definition.default_value !== null &&
      definition.tag_values !== null &&
      !definition.tag_values.includes(definition.default_value)
    ) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.tagValueNotAllowed, path: ['default_value'] });
    }
  });
export type TagDefinitionRequest = z.infer<typeof TagDefinitionRequest>;

/** Does a value satisfy a definition's enumeration? null: free text; empty list: no value allowed. */
export function tagValueAllowed(definition: Pick<TagDefinition, 'tag_values'>, value: string): boolean {
  if (definition.tag_values === null) return true;
  return definition.tag_values.includes(value);
}
