import { randomBytes } from 'node:crypto';
import type { TenantCaller } from '#core/http/caller.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type WriteCondition } from '#core/ports/table-store.ts';
import {
  readSupervisionPolicy,
  supervisionPolicyToItem,
  toSupervisionPolicy,
  type SupervisionPolicyItem,
} from '#core/store/entities/supervision-policy.ts';
import { keys } from '#core/store/keys.ts';
import { pageOf, type QueryOf } from '#core/store/paging.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { SupervisionPolicy, SupervisionPolicyRequest } from '#shared/contract/entities/supervision.ts';
import type { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { scopePatternIssues } from './policy-scope.ts';

export const POLICY_NOT_FOUND = 'Supervision policy not found';
export const POLICY_EXISTS = 'A supervision policy with this reference already exists';
export const POLICY_CHANGED = 'The supervision policy changed meanwhile; read it again and retry';

/** 32 random bytes, hex: keys the policy's sampling choice (shared/supervision/sampling.ts). */
export const newSamplingSeed = () => randomBytes(32).toString('hex');

export function listPolicies(caller: TenantCaller, query: QueryOf<typeof supervisionEndpoints, 'admin.supervision.policies.list'>) {
  const { deps, tenant } = caller;
  const now = deps.clock.now();
  return pageOf(deps, {
    client: tenant,
    query: keys.supervisionPolicy.list(tenant, query.starts_with),
    page: query,
    toData: (item) => toSupervisionPolicy(readSupervisionPolicy(item), now),
  });
}

/** The stored policy (with its apply lease), or undefined. Consistent: writes compare against it. */
export async function readStoredPolicy(deps: Pick<Dependencies, 'table'>, tenant: string, policyReference: string): Promise<SupervisionPolicyItem | undefined> {
  const item = await deps.table.get(keys.supervisionPolicy.item(tenant, policyReference), { consistent: true });
  return item === undefined ? undefined : readSupervisionPolicy(item);
}

export async function getPolicy(caller: TenantCaller, policyReference: string): Promise<SupervisionPolicy> {
  const stored = await readStoredPolicy(caller.deps, caller.tenant, policyReference);
  if (stored === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
  return toSupervisionPolicy(stored, caller.deps.clock.now());
}

/** The request's fields as stored (a Sampling policy keeps no terms, a Lexicon or Ignore one no share). */
function policyFields(request: SupervisionPolicyRequest) {
  return {
    kind: request.kind,
    ...(request.description === undefined ? {} : { description: request.description }),
    is_enabled: request.is_enabled,
    scope: request.scope,
    terms: request.terms,
    ...(request.sample_percent === undefined ? {} : { sample_percent: request.sample_percent }),
    sample_minimum: request.sample_minimum,
    review_days: request.review_days,
  };
}

function assertScopeReadable(request: SupervisionPolicyRequest): void {
  const issues = scopePatternIssues(request.scope);
  if (issues.length > 0) throw new ValidationError(issues);
}

/** Creates a policy: version 1 and a new sampling seed. An existing reference is a 409, never overwritten. */
export async function createPolicy(caller: TenantCaller, policyReference: string, request: SupervisionPolicyRequest): Promise<SupervisionPolicy> {
  assertScopeReadable(request);
  const { deps, tenant, principal } = caller;
  const policy: SupervisionPolicyItem = {
    client: tenant,
    policy_reference: policyReference,
    ...policyFields(request),
    sampling_seed: newSamplingSeed(),
    policy_version: 1,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: deps.clock.now().toISOString(),
  };
  try {
    await deps.table.put(supervisionPolicyToItem(tenant, policy), { condition: { kind: 'item-not-exists' } });
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError(POLICY_EXISTS);
    throw error;
  }
  return toSupervisionPolicy(policy, deps.clock.now());
}

/** The write holds only while the stored policy is still the version read. */
const atVersion = (version: number): WriteCondition => ({
  kind: 'expression',
  expression: '#v = :v',
  names: { '#v': 'policy_version' },
  values: { ':v': version },
});

/**
 * Replaces a policy: its version goes up by one; its sampling seed (so a sampling policy goes on choosing the same
 * recordings) and its apply run stay, untouched by this write (an update of the policy's own attributes only, so a
 * running apply's progress written meanwhile is never overwritten). A write that lost a race answers 409.
 */
export async function updatePolicy(caller: TenantCaller, policyReference: string, request: SupervisionPolicyRequest): Promise<SupervisionPolicy> {
  assertScopeReadable(request);
  const { deps, tenant, principal } = caller;
  const stored = await readStoredPolicy(deps, tenant, policyReference);
  if (stored === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
  const fields = policyFields(request);
  const changed = {
    ...fields,
    policy_version: stored.policy_version + 1,
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: deps.clock.now().toISOString(),
  };
  const absent = (['description', 'sample_percent'] as const).filter((field) => !(field in fields));
  let written;
  try {
    written = await deps.table.update(
      keys.supervisionPolicy.item(tenant, policyReference),
      { set: changed, ...(absent.length === 0 ? {} : { remove: [...absent] }) },
      { condition: atVersion(stored.policy_version) },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if ((await readStoredPolicy(deps, tenant, policyReference)) === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
    throw new ConflictError(POLICY_CHANGED);
  }
  const policy = written === undefined ? await readStoredPolicy(deps, tenant, policyReference) : readSupervisionPolicy(written);
  if (policy === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
  return toSupervisionPolicy(policy, deps.clock.now());
}

/** Deletes a policy; the items it raised and their history stay (they are records, not the policy's). */
export async function deletePolicy(caller: TenantCaller, policyReference: string): Promise<void> {
  const { deps, tenant } = caller;
  const stored = await readStoredPolicy(deps, tenant, policyReference);
  if (stored === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
  const { pk, sk } = keys.supervisionPolicy.item(tenant, policyReference);
  try {
    await deps.table.delete({ pk, sk }, { condition: atVersion(stored.policy_version) });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if ((await readStoredPolicy(deps, tenant, policyReference)) === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
    throw new ConflictError(POLICY_CHANGED);
  }
}
