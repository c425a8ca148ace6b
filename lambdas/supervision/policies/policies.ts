import { randomBytes } from 'node:crypto';
import type { TenantCaller } from '#core/http/caller.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
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
import { versionWrites } from '../../audit/public.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';

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

/** Tries of a change while only the policy's apply run moves on under it (each try reads the policy again). */
const WRITE_TRIES = 3;

/**
 * Writes one change of a policy with the version it replaces (the item as read), in one transaction, on condition it
 * is still exactly that item (every attribute as read: its apply run's progress and lease too, so the version kept is
 * the one replaced). A policy changed meanwhile (another version) is a 409; one whose apply run only moved on meanwhile
 * is read again and the change tried again. Answers the item the change replaced.
 */
async function changePolicy(
  caller: TenantCaller,
  policyReference: string,
  change: (stored: SupervisionPolicyItem, condition: WriteCondition) => TransactOperation,
  kept: 'updated' | 'deleted',
): Promise<SupervisionPolicyItem> {
  const { deps, tenant } = caller;
  const key = keys.supervisionPolicy.item(tenant, policyReference);
  let readVersion: number | undefined;
  for (let attempt = 1; attempt <= WRITE_TRIES; attempt += 1) {
    const item: TableItem | undefined = await deps.table.get(key, { consistent: true });
    if (item === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
    const stored = readSupervisionPolicy(item);
    if (readVersion !== undefined && stored.policy_version !== readVersion) break;
    readVersion = stored.policy_version;
    try {
      await deps.table.transactWrite([change(stored, unchangedItem(item)), ...versionWrites(caller, [{ entity: 'supervision-policy', reference: policyReference, stored: item, change: kept }])]);
      return stored;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  if ((await readStoredPolicy(deps, tenant, policyReference)) === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
  throw new ConflictError(POLICY_CHANGED);
}

/**
 * Replaces a policy: its version goes up by one; its sampling seed (so a sampling policy goes on choosing the same
 * recordings) and its apply run stay, untouched by this write (an update of the policy's own attributes only, so a
 * running apply's progress is never overwritten). The policy as it was is kept as a version in the same transaction.
 * A write that lost a race to another change of the policy answers 409.
 */
export async function updatePolicy(caller: TenantCaller, policyReference: string, request: SupervisionPolicyRequest): Promise<SupervisionPolicy> {
  assertScopeReadable(request);
  const { deps, tenant, principal } = caller;
  const fields = policyFields(request);
  const absent = (['description', 'sample_percent'] as const).filter((field) => !(field in fields));
  const stamp = { updated_by: actorOf(principal), updated_by_actor: actorRecordOf(principal), updated_at: deps.clock.now().toISOString() };
  const key = keys.supervisionPolicy.item(tenant, policyReference);
  let changed: Record<string, unknown> = {};
  const stored = await changePolicy(
    caller,
    policyReference,
    (read, condition) => {
      changed = { ...fields, policy_version: read.policy_version + 1, ...stamp };
      return { kind: 'update', key: { pk: key.pk, sk: key.sk }, update: { set: changed, ...(absent.length === 0 ? {} : { remove: [...absent] }) }, condition };
    },
    'updated',
  );
  // The policy as written: the item read (still as read when the write landed), its own attributes replaced.
  const written: Record<string, unknown> = { ...stored, ...changed };
  for (const field of absent) delete written[field];
  return toSupervisionPolicy(readSupervisionPolicy({ ...key, ...written }), deps.clock.now());
}

/**
 * Deletes a policy, kept as it was stored as its last version; the items it raised and their history stay (they are
 * records, not the policy's).
 */
export async function deletePolicy(caller: TenantCaller, policyReference: string): Promise<void> {
  const { pk, sk } = keys.supervisionPolicy.item(caller.tenant, policyReference);
  await changePolicy(caller, policyReference, (_read, condition) => ({ kind: 'delete', key: { pk, sk }, condition }), 'deleted');
}
