import { PARAMETER_NOUNS, wordingOf } from '#shared/contract/action-wording.ts';
import type { UserActivity } from '#shared/contract/entities/activity.ts';
import { actorName } from '../../lib/actor-name.ts';

/**
 * The audit trail in sentences: "Dana Admin (admin@demo.test) placed a legal hold on device user du-bram". Pure, and
 * driven by the action wording of the contract (shared/contract/action-wording.ts, one entry per action, so every
 * endpoint is covered) and the nouns of its path parameters; no list of paths here.
 */

/** How a legal hold's `target_type` is said before its `target`. */
const HOLD_TARGETS: Readonly<Record<string, string>> = { DeviceUser: 'device user', PortalUser: 'portal user' };

/** Path parameters a sentence never says: the tenant of a tenant call (every call has it) and a comment's ULID. */
const UNSAID = new Set(['comment_id']);

/** What the call was about, in words ("recording 01J…", "device user du-bram"), from its path parameters. */
export function subjectOf(activity: Pick<UserActivity, 'action' | 'parameters'>): string {
  const parameters = activity.parameters ?? {};
  const said = (name: string) => {
    const value = parameters[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
  const target = said('target');
  const targetType = said('target_type');
  if (target !== undefined && targetType !== undefined) return `${HOLD_TARGETS[targetType] ?? targetType} ${target}`;
  const internal = activity.action.startsWith('internal:');
  const parts: string[] = [];
  for (const [name, noun] of Object.entries(PARAMETER_NOUNS)) {
    const value = said(name);
    if (value === undefined || UNSAID.has(name) || (name === 'client' && !internal)) continue;
    parts.push(`${noun} ${value}`);
  }
  for (const name of Object.keys(parameters).sort()) {
    const value = said(name);
    if (value === undefined || name in PARAMETER_NOUNS || name === 'target' || name === 'target_type') continue;
    parts.push(`${name.replaceAll('_', ' ')} ${value}`);
  }
  return parts.join(', ');
}

/** Who acted, as every screen names them (web/src/lib/actor-name.ts). */
export function whoOf(activity: Pick<UserActivity, 'actor' | 'user_id' | 'support_reference' | 'is_client_app'>): string {
  if (activity.actor === undefined && activity.is_client_app) return `client app ${activity.user_id}`;
  return actorName(activity.actor, activity.user_id, activity.support_reference);
}

/** What was done, after the person's name: "placed a legal hold on device user du-bram", or what was refused and why. */
export function deedOf(activity: Pick<UserActivity, 'action' | 'parameters' | 'is_allowed' | 'denial_reason'>, times = 1): string {
  const wording = wordingOf(activity.action);
  const subject = subjectOf(activity);
  if (!activity.is_allowed) {
    const refused = `was refused ${wording.doing}${subject === '' ? '' : ` (${subject})`}`;
    return `${refused}${times > 1 ? ` ${times} times` : ''}${activity.denial_reason ? `: ${activity.denial_reason}` : ''}`;
  }
  const deed = subject === '' ? wording.did : `${wording.did} ${subject}`;
  return times > 1 ? `${deed} ${times} times` : deed;
}

/** The whole sentence of one record. */
export function sentenceOf(activity: UserActivity, times = 1): string {
  return `${whoOf(activity)} ${deedOf(activity, times)}`;
}

/** One row of the audit screen: a record, or consecutive reads of one thing by one person folded together. */
export interface ActivityRow {
  /** The newest record of the row (the list is newest first): its time and log id are the row's. */
  first: UserActivity;
  /** Every record of the row, newest first (one for a record that is not folded). */
  records: UserActivity[];
}

/** Whether two records are reads of the same thing by the same person with the same outcome (so fold together). */
function sameRead(a: UserActivity, b: UserActivity): boolean {
  return (
    wordingOf(a.action).kind === 'read' &&
    a.action === b.action &&
    a.user_id === b.user_id &&
    a.is_allowed === b.is_allowed &&
    (a.support_reference ?? '') === (b.support_reference ?? '') &&
    sameParameters(a.parameters, b.parameters)
  );
}

function sameParameters(a: UserActivity['parameters'], b: UserActivity['parameters']): boolean {
  const left = Object.entries(a ?? {}).sort(([x], [y]) => x.localeCompare(y));
  const right = Object.entries(b ?? {}).sort(([x], [y]) => x.localeCompare(y));
  return left.length === right.length && left.every(([name, value], index) => right[index]?.[0] === name && right[index]?.[1] === value);
}

/**
 * Folds consecutive reads of the same thing (same action and path) by the same person into one row, so one person's
 * page views do not flood the trail: "viewed the recordings list 37 times". Changes are never folded: each is its own
 * row. Records keep their order; nothing is dropped (every folded record stays in its row's `records`).
 */
export function foldReads(activities: readonly UserActivity[]): ActivityRow[] {
  const rows: ActivityRow[] = [];
  for (const activity of activities) {
    const last = rows.at(-1);
    if (last !== undefined && sameRead(last.first, activity)) last.records.push(activity);
    else rows.push({ first: activity, records: [activity] });
  }
  return rows;
}
