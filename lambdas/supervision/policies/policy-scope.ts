import type { Dependencies } from '#core/dependencies.ts';
import { readGroup } from '#core/store/entities/group.ts';
import { keys } from '#core/store/keys.ts';
import type { PayloadType } from '#shared/constants/payloads.ts';
import type { SupervisionPolicy, SupervisionScope } from '#shared/contract/entities/supervision.ts';
import { evaluate, type GroupFacts } from '#shared/permissions/evaluate.ts';
import { checkPattern } from '#shared/permissions/matchers.ts';

/** What a policy's scope is judged on: the recording's type, person and group (with the group's tags). */
export interface CoveredRecording {
  readonly payload_type: PayloadType;
  readonly device_user_reference?: string | undefined;
  /** The recording's group as it is now (name and tags); a recording without a group has name '' and no tags. */
  readonly group: GroupFacts;
}

/** The action the scope's conditions are evaluated for: a name no role grants, used only to run the matcher. */
const SCOPE_ACTION = 'supervision:Scope';

/**
 * Whether the group conditions admit the group, exactly as a role's permission with these conditions would
 * (shared/permissions/evaluate.ts: all matchers of a condition must hold, an including condition admits, an excluding
 * one excludes; an unreadable pattern fails closed). Evaluated through the permission evaluator itself so the two
 * can never disagree.
 */
function conditionsAdmit(conditions: SupervisionPolicy['scope']['group_conditions'], group: GroupFacts): boolean {
  const role = { role_reference: 'supervision-scope', permissions: [{ actions_matching: SCOPE_ACTION, conditions }] };
  return evaluate([role], { action: SCOPE_ACTION, group }).allowed;
}

/**
 * Does the policy read this recording? Its type must be one of the policy's; and the person must be in scope: with
 * neither group conditions nor named device users that is everyone, else anyone in a group the conditions admit or
 * named among the device users.
 */
export function policyCovers(policy: Pick<SupervisionPolicy, 'scope'>, recording: CoveredRecording): boolean {
  const { scope } = policy;
  if (!scope.payload_types.includes(recording.payload_type)) return false;
  const conditions = scope.group_conditions;
  const named = scope.device_user_references;
  if (conditions.length === 0 && named.length === 0) return true;
  if (recording.device_user_reference !== undefined && named.includes(recording.device_user_reference)) return true;
  return conditions.length > 0 && conditionsAdmit(conditions, recording.group);
}

/** The group's facts as the conditions read them: its name and current tags ('' and none without a group). */
export async function groupFactsOf(deps: Pick<Dependencies, 'table'>, tenant: string, group: string | undefined): Promise<GroupFacts> {
  if (group === undefined || group.length === 0) return { name: '', tags: [] };
  const item = await deps.table.get(keys.group.item(tenant, group));
  return { name: group, tags: item === undefined ? [] : readGroup(item).tags };
}

/** Facts per group, each group read once however many recordings share it (a job or a preview reads many). */
export function groupFactsCache(deps: Pick<Dependencies, 'table'>, tenant: string): (group: string | undefined) => Promise<GroupFacts> {
  const cache = new Map<string, Promise<GroupFacts>>();
  return (group) => {
    const name = group ?? '';
    let facts = cache.get(name);
    if (facts === undefined) {
      facts = groupFactsOf(deps, tenant, name);
      cache.set(name, facts);
    }
    return facts;
  };
}

/**
 * `body.scope.group_conditions.<i>.<field>: …` for every matcher the permission evaluator could not read (it would
 * fail closed and silently cover nobody): the same check a role's conditions get when saved.
 */
export function scopePatternIssues(scope: SupervisionScope, prefix = 'body.scope'): string[] {
  const lines: string[] = [];
  scope.group_conditions.forEach((condition, index) => {
    for (const field of ['names_matching', 'keys_matching', 'values_matching'] as const) {
      const matcher = condition[field];
      if (matcher === undefined) continue;
      const problem = checkPattern(matcher, condition.is_regex);
      if (problem !== undefined) lines.push(`${prefix}.group_conditions.${index}.${field}: ${problem.replace(/\p{Cc}/gu, '?')}`);
    }
  });
  return lines;
}
