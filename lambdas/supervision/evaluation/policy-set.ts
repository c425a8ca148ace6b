import type { Dependencies } from '#core/dependencies.ts';
import { readSupervisionPolicy, type SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import { keys } from '#core/store/keys.ts';
import { compileLexicon, type CompiledLexicon } from '#shared/supervision/lexicon/index.ts';

/**
 * The policies evaluation applies, compiled: the enabled Lexicon and Ignore policies' terms as one automaton, and the
 * enabled Sampling policies. Compiling a thousand terms costs far more than evaluating a message, so the compiled
 * lexicon is kept for the life of the function, per tenant, and compiled again only when a policy was added, removed
 * or changed (its reference and version are the cache key).
 */
export interface PolicySet {
  /** Enabled Lexicon and Ignore policies, in reference order (the order of hits). */
  readonly lexicon: readonly SupervisionPolicyItem[];
  readonly sampling: readonly SupervisionPolicyItem[];
  readonly compiled: CompiledLexicon;
}

/** Each enabled policy as given (one apply or preview evaluates one policy, saved or not), compiled. */
export function policySetOf(policies: readonly SupervisionPolicyItem[]): PolicySet {
  const enabled = policies.filter((policy) => policy.is_enabled);
  const lexicon = enabled.filter((policy) => policy.kind !== 'Sampling');
  return {
    lexicon,
    sampling: enabled.filter((policy) => policy.kind === 'Sampling'),
    compiled: compileLexicon(lexicon.map((policy) => ({ policy_reference: policy.policy_reference, kind: policy.kind as 'Lexicon' | 'Ignore', terms: policy.terms }))),
  };
}

const compiledByTenant = new Map<string, { signature: string; set: PolicySet }>();

/** Every policy of the tenant (one partition, read to its end: a tenant keeps tens of policies, not thousands). */
export async function tenantPolicies(deps: Pick<Dependencies, 'table'>, tenant: string): Promise<SupervisionPolicyItem[]> {
  const policies: SupervisionPolicyItem[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.table.query({ ...keys.supervisionPolicy.list(tenant), ...(startKey === undefined ? {} : { startKey }) });
    policies.push(...page.items.map(readSupervisionPolicy));
    startKey = page.lastKey;
  } while (startKey !== undefined);
  return policies;
}

/** The tenant's policy set as stored now, compiled at most once per set of policy versions. */
export async function tenantPolicySet(deps: Pick<Dependencies, 'table'>, tenant: string): Promise<PolicySet> {
  const policies = await tenantPolicies(deps, tenant);
  const signature = policies.map((policy) => `${policy.policy_reference}@${policy.policy_version}`).join('\n');
  const cached = compiledByTenant.get(tenant);
  if (cached !== undefined && cached.signature === signature) return cached.set;
  const set = policySetOf(policies);
  compiledByTenant.set(tenant, { signature, set });
  return set;
}
