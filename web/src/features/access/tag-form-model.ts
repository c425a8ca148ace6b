import { TagDefinitionRequest, type TagDefinition } from '#shared/contract/entities/groups.ts';
import { TagKey } from '#shared/contract/fields.ts';
import { formatIssues } from '#shared/contract/messages.ts';
import type { z } from 'zod';

/** The tag definition form while it is edited. */
export interface TagFormValues {
  key: string;
  /** `free`: any value (tag_values null); `list`: only the listed values (an empty list allows none). */
  mode: 'free' | 'list';
  values: string[];
  isRequired: boolean;
  defaultValue: string;
}

export const EMPTY_TAG_FORM: TagFormValues = { key: '', mode: 'free', values: [], isRequired: false, defaultValue: '' };

export function tagFormValuesOf(definition: TagDefinition): TagFormValues {
  return {
    key: definition.tag_key,
    mode: definition.tag_values === null ? 'free' : 'list',
    values: definition.tag_values ?? [],
    isRequired: definition.is_required,
    defaultValue: definition.default_value ?? '',
  };
}

export type TagFormResult = { ok: true; key: string; body: z.input<typeof TagDefinitionRequest> } | { ok: false; lines: string[] };

/** Checks the form with the contract's schema (paths `params.tag_key`, `body.<field>`), as the server will. */
export function checkTagForm(values: TagFormValues, forceUpdate = false): TagFormResult {
  const lines: string[] = [];
  const key = TagKey.safeParse(values.key.trim());
  if (!key.success) lines.push(...formatIssues(key.error, 'params.tag_key'));
  const body = {
    tag_values: values.mode === 'free' ? null : values.values,
    is_required: values.isRequired,
    default_value: values.defaultValue === '' ? null : values.defaultValue,
    force_update: forceUpdate,
  };
  const parsed = TagDefinitionRequest.safeParse(body);
  if (!parsed.success) lines.push(...formatIssues(parsed.error, 'body'));
  if (lines.length > 0) return { ok: false, lines };
  return { ok: true, key: values.key.trim(), body };
}

/** How a definition's allowed values read: "Free text", "No value allowed" or the list. */
export function allowedValuesText(definition: Pick<TagDefinition, 'tag_values'>): string {
  if (definition.tag_values === null) return 'Free text';
  if (definition.tag_values.length === 0) return 'No value allowed';
  return definition.tag_values.join(', ');
}
