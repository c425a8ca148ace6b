import { ValidationError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { regulatoryFloorProblems } from '#shared/constants/regulatory-rules.ts';
import type { RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import { getRetentionPolicy, retentionProblems } from './retention-policy.ts';

/**
 * The request as it will be stored, judged against the regulatory floor: rules the request leaves out stay as stored
 * (a policy saved without naming its rules never drops them), and a period shorter than the strictest chosen rule's
 * minimum refuses the whole request, one `path: message` line per offending type naming the rule, beside the policy's
 * other problems.
 */
export async function withinRegulatoryFloor(caller: TenantCaller, request: RetentionPolicyRequest): Promise<RetentionPolicyRequest> {
  const rules = request.regulatory_rules ?? (await getRetentionPolicy(caller.deps, caller.tenant)).regulatory_rules ?? [];
  const problems = [...retentionProblems(request), ...regulatoryFloorProblems(request, rules)];
  if (problems.length > 0) throw new ValidationError(problems);
  return { ...request, regulatory_rules: rules };
}
