import type { Dependencies } from '#core/dependencies.ts';
import { readRetentionPolicy, retentionPolicyKey, toRetentionPolicy } from '#core/store/entities/retention-policy.ts';
import type { RetentionPolicy } from '#shared/contract/entities/account-data.ts';
import { completePolicy, defaultRetention } from './retention-defaults.ts';

/**
 * The tenant's policy, or the defaults (without `updated_by`/`updated_at`: nobody set them) when it never set one;
 * complete either way.
 * A module of its own, apart from the policy's rules and its save (./retention-policy.ts): the save starts the object
 * retention sync, and the sync reads the policy, so each imports this instead of the other.
 */
export async function getRetentionPolicy(deps: Pick<Dependencies, 'table'>, client: string): Promise<RetentionPolicy> {
  const item = await deps.table.get(retentionPolicyKey(client), { consistent: true });
  if (item === undefined) return { client, ...defaultRetention() };
  // Stored complete, but a record type added since (CaptureLedgerData) is not in it: it reads as its default, as the
  // job has always applied it, not as the "kept without end" an absent period would mean in the editor.
  const stored = readRetentionPolicy(item);
  return toRetentionPolicy({ ...stored, ...completePolicy(stored) });
}
