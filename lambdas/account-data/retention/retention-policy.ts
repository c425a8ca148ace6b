import { ulid } from 'ulid';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import { ConditionFailedError, type TableItem, type WriteCondition } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { versionWrites } from '../../audit/public.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { retentionPolicyToItem, toRetentionPolicy, type RetentionPolicyItem } from '#core/store/entities/retention-policy.ts';
import { RETENTION_RECORD_TYPES } from '#shared/constants/account.ts';
import { TRANSFERABLE_PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { RetentionPolicy, RetentionPolicyRequest } from '#shared/contract/entities/account-data.ts';
import { lengthenedTypes } from '../object-lock/object-retention.ts';
import { ObjectRetentionSyncInput, trackedRetentionSync } from '../object-lock/object-retention-sync.ts';
import { startTrackedJob } from '../../jobs/public.ts';
import { completePolicy } from './retention-defaults.ts';
import { getRetentionPolicy } from './stored-retention-policy.ts';

// The read lives in its own module (the object retention sync reads it too); callers of the policy find it here.
export { getRetentionPolicy };
// Completing a policy is the defaults' (the read completes a policy stored before a record type existed).
export { completePolicy };

/**
 * Longest period accepted: a hundred years. Beyond it a lock date would pass year 9999, which S3 Object Lock and ISO
 * dates cannot hold, and no rule asks for it.
 */
export const MAX_RETENTION_DAYS = 36_500;

const TRANSFERABLE = new Set<string>(TRANSFERABLE_PAYLOAD_TYPES);

interface Periods {
  delete_after_days?: number | undefined;
  destroy_after_days?: number | undefined;
}

/** `path: message` lines for one record type's (or payload type's) periods. */
function periodProblems(path: string, periods: Periods): string[] {
  const problems: string[] = [];
  for (const field of ['delete_after_days', 'destroy_after_days'] as const) {
    const days = periods[field];
    if (days !== undefined && days > MAX_RETENTION_DAYS) problems.push(`${path}.${field}: Must be at most ${MAX_RETENTION_DAYS} days (100 years)`);
  }
  const { delete_after_days: deleteAfter, destroy_after_days: destroyAfter } = periods;
  if (deleteAfter !== undefined && destroyAfter !== undefined && destroyAfter < deleteAfter) {
    problems.push(`${path}.destroy_after_days: Must not be before delete_after_days (${deleteAfter}): a record is destroyed after it is deleted`);
  }
  return problems;
}

/**
 * What the contract cannot say about a policy, one `path: message` line each: periods past the bound, destruction
 * before deletion, a payload type listed twice, and transfers demanded of (or counted from) a type never transferred.
 * Negative days, unknown record types and unknown payload types are the contract's own 400s.
 */
export function retentionProblems(request: RetentionPolicyRequest): string[] {
  const problems: string[] = [];
  for (const type of RETENTION_RECORD_TYPES) {
    if (type === 'PayloadData') continue;
    const periods = request[type];
    if (periods !== undefined) problems.push(...periodProblems(`body.${type}`, periods));
  }
  const seen = new Set<string>();
  for (const [index, entry] of (request.PayloadData ?? []).entries()) {
    const path = `body.PayloadData.${index}`;
    if (seen.has(entry.payload_type)) problems.push(`${path}.payload_type: ${entry.payload_type} is listed more than once`);
    seen.add(entry.payload_type);
    problems.push(...periodProblems(path, entry));
    if (!TRANSFERABLE.has(entry.payload_type)) {
      if (entry.required_transfers > 0) problems.push(`${path}.required_transfers: ${entry.payload_type} is never transferred; must be 0`);
      if (entry.retention_timestamp === 'transferred_at') {
        problems.push(`${path}.retention_timestamp: ${entry.payload_type} is never transferred; count from payload_time, processed_at or receipt_confirmed_at`);
      }
    }
  }
  return problems;
}

/**
 * Replaces the policy. A record type or payload type the request leaves out keeps its default; `{}` for a record type
 * (or a payload entry with neither period) means kept without end. Refused whole, with every problem named, when any
 * part is wrong: half a policy is never stored.
 */
/** The write's condition: the policy item is still as read (absent, or last written at the same time). */
function unchangedPolicy(stored: TableItem | undefined): WriteCondition {
  if (stored === undefined) return { kind: 'item-not-exists' };
  if (typeof stored.updated_at !== 'string') return { kind: 'expression', expression: 'attribute_not_exists(#at)', names: { '#at': 'updated_at' } };
  return { kind: 'expression', expression: '#at = :at', names: { '#at': 'updated_at' }, values: { ':at': stored.updated_at } };
}

export async function putRetentionPolicy(caller: TenantCaller, request: RetentionPolicyRequest): Promise<RetentionPolicy> {
  const { deps, tenant: client, principal } = caller;
  const problems = retentionProblems(request);
  if (problems.length > 0) throw new ValidationError(problems);
  const policy: RetentionPolicyItem = {
    client,
    ...completePolicy(request),
    updated_by: actorOf(principal),
    updated_by_actor: actorRecordOf(principal),
    updated_at: deps.clock.now().toISOString(),
  };
  const before = await getRetentionPolicy(deps, client);
  // The policy as stored (none until first set) is kept as a version with the change, which holds only while it is
  // still that one: two changes at once cannot leave a state no version shows.
  const stored = await deps.table.get(keys.retentionPolicy.key(client), { consistent: true });
  try {
    await deps.table.transactWrite([
      { kind: 'put', item: retentionPolicyToItem(client, policy), condition: unchangedPolicy(stored) },
      ...(stored === undefined ? [] : versionWrites(caller, [{ entity: 'retention-policy', reference: client, stored, change: 'updated' }])),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError('The retention policy changed meanwhile; reload it');
    throw error;
  }
  // A longer period extends the Object Lock of the type's stored objects, in a job (a shorter one applies to new
  // recordings only: docs/decisions.md "Object retention").
  const lengthened = lengthenedTypes(before, policy);
  // Its running-job marker first, so a sync whose start is lost, or whose run dies, is resumed by the job-sweep.
  if (lengthened.length > 0) await startTrackedJob(deps, trackedRetentionSync({ ...ObjectRetentionSyncInput.parse({ client, payload_types: lengthened }), sync_id: ulid() }));
  return toRetentionPolicy(policy);
}
