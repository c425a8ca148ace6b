import { wordingOf } from '#shared/contract/action-wording.ts';
import { supportModeRefusalOf } from '#shared/contract/support-mode.ts';

/** What the signed-in user may do with one action: the answer and, when refused, a sentence saying why. */
export interface Permission {
  /** The action asked about (`<area>:<Verb>`), or the first one missing when several were asked about. */
  action: string;
  allowed: boolean;
  /** Why the action is not offered; undefined when it is allowed. */
  reason?: string;
}

/** The profile's actions are unknown (not loaded yet, or the load failed). */
export const PERMISSIONS_NOT_LOADED = 'Your permissions are still loading.';

/** The refusal sentence for one action, in words (shared/contract/action-wording.ts): "Your roles do not allow deactivating devices." */
export function missingActionReason(action: string): string {
  return `Your roles do not allow ${wordingOf(action).doing}.`;
}

/**
 * Does the profile allow the action(s)? The profile's `actions` are the catalogue actions the server computed from
 * the user's roles (deny already applied; in support mode without the acts support mode refuses), so membership is
 * the whole test. When several actions are named, all are needed and the first missing one is reported; in support
 * mode an act support mode refuses says so rather than blaming the role (shared/contract/support-mode.ts).
 */
export function permissionOf(
  profileActions: readonly string[] | undefined,
  required: string | readonly string[],
  options: { supportMode?: boolean } = {},
): Permission {
  const actions = typeof required === 'string' ? [required] : [...required];
  const first = actions[0] ?? '';
  if (profileActions === undefined) return { action: first, allowed: false, reason: PERMISSIONS_NOT_LOADED };
  const granted = new Set(profileActions);
  const missing = actions.find((action) => !granted.has(action));
  if (missing === undefined) return { action: first, allowed: true };
  const supportRefusal = options.supportMode === true ? supportModeRefusalOf(missing) : undefined;
  return { action: missing, allowed: false, reason: supportRefusal === undefined ? missingActionReason(missing) : `${supportRefusal}.` };
}
