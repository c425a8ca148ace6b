import type { TenantCaller } from '#core/http/caller.ts';
import { actorOf, actorRecordOf } from '#core/auth/actor.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { toSupervisionPolicy } from '#core/store/entities/supervision-policy.ts';
import { keys } from '#core/store/keys.ts';
import type { SupervisionApplyRequest, SupervisionApplyRun, SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import { periodOf } from '../evaluation/period.ts';
import { startTrackedJob } from '../../jobs/public.ts';
import { APPLY_LEASE_MS, endApply, trackedApply, type SupervisionApplyInput } from '../jobs/apply-job.ts';
import { POLICY_NOT_FOUND, readStoredPolicy } from './policies.ts';

export const APPLY_RUNNING = 'An apply of this policy is running; wait for it to finish';

/**
 * Starts applying a saved policy to a past period (`POST supervision/policies/{policy_reference}/apply`): the policy's
 * `last_apply` becomes a new Running run with its lease, on condition no other run holds a live lease (409 then), and
 * the `supervision-apply` job is started through the JobRunner, after its running-job marker (a start that is lost
 * is started by the job-sweep). A start the runner refuses ends the run Failed with why, marker included, and the
 * error answers the call: the policy never shows a run that is not going on.
 */
export async function startApply(caller: TenantCaller, policyReference: string, request: SupervisionApplyRequest): Promise<SupervisionPolicy> {
  const { deps, tenant, principal } = caller;
  const period = periodOf(request);
  const stored = await readStoredPolicy(deps, tenant, policyReference);
  if (stored === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
  const now = deps.clock.now();
  const at = now.toISOString();
  if (stored.apply_lease_until !== undefined && stored.apply_lease_until >= at) throw new ConflictError(APPLY_RUNNING);
  const run: SupervisionApplyRun = {
    state: 'Running',
    from: period.from,
    to: period.to,
    started_at: at,
    started_by: actorOf(principal),
    started_by_actor: actorRecordOf(principal),
    scanned: 0,
    raised: 0,
  };
  const lease = new Date(now.getTime() + APPLY_LEASE_MS).toISOString();
  try {
    await deps.table.update(
      keys.supervisionPolicy.item(tenant, policyReference),
      { set: { last_apply: run, apply_run: at, apply_lease_until: lease } },
      {
        condition: {
          kind: 'expression',
          expression: 'attribute_exists(#v) AND (attribute_not_exists(#lease) OR #lease < :now)',
          names: { '#v': 'policy_version', '#lease': 'apply_lease_until' },
          values: { ':now': at },
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if ((await readStoredPolicy(deps, tenant, policyReference)) === undefined) throw new NotFoundError(POLICY_NOT_FOUND);
    throw new ConflictError(APPLY_RUNNING);
  }
  const input: SupervisionApplyInput = { client: tenant, policy_reference: policyReference, run: at, from: period.from, to: period.to };
  try {
    await startTrackedJob(deps, trackedApply(input));
  } catch (error) {
    await endApply(deps, input, { run, state: 'Failed', message: 'The apply job could not be started' });
    throw error;
  }
  return toSupervisionPolicy({ ...stored, last_apply: run, apply_run: at, apply_lease_until: lease }, now);
}
