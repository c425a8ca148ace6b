import type { Condition } from '#shared/contract/entities/roles.ts';
import type { z } from 'zod';

/**
 * One group condition as an editor holds it (a role's rule, a supervision policy's scope): the same matchers on group
 * names, tag keys and tag values, all of which must match, and whether matching groups are included or excluded.
 */
export interface ConditionDraft {
  /** `include`: matching groups are in; `exclude` (is_denied): matching groups are never in. */
  mode: 'include' | 'exclude';
  names: string;
  keys: string;
  values: string;
  isRegex: boolean;
}

export const EMPTY_CONDITION: ConditionDraft = { mode: 'include', names: '', keys: '', values: '', isRegex: false };

export type ConditionInput = z.input<typeof Condition>;

const given = (value: string): string | undefined => (value.trim() === '' ? undefined : value.trim());

/** The contract's condition for a draft (empty matchers left out, so the contract can say none was given). */
export function conditionOf(draft: ConditionDraft): ConditionInput {
  return {
    ...(given(draft.names) === undefined ? {} : { names_matching: given(draft.names) }),
    ...(given(draft.keys) === undefined ? {} : { keys_matching: given(draft.keys) }),
    ...(given(draft.values) === undefined ? {} : { values_matching: given(draft.values) }),
    is_denied: draft.mode === 'exclude',
    is_regex: draft.isRegex,
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A stored condition (read loosely: stored records are not re-validated) as the editor shows it. */
export function conditionDraftOf(raw: unknown): ConditionDraft {
  const condition = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  return {
    mode: condition.is_denied === true ? 'exclude' : 'include',
    names: text(condition.names_matching),
    keys: text(condition.keys_matching),
    values: text(condition.values_matching),
    isRegex: condition.is_regex === true,
  };
}
