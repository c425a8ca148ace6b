import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { readPayload } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { PayloadType } from '#shared/constants/payloads.ts';
import { getRetentionPolicy } from '../retention/stored-retention-policy.ts';
import { objectRetentionFor } from './object-retention.ts';
import { endTrackedJob, renewTrackedJob, type TrackedJob } from '../../jobs/public.ts';

/**
 * The `object-retention-sync` job: after a tenant lengthens a payload type's period (`PUT account/retention` starts
 * it), extends the Object Lock retention of that type's stored objects to what the policy now asks. It walks the
 * tenant's payloads by Query (gsi1, by time), a page at a time, and after JOB_RUN_MS starts itself again with the
 * Query position in its input. It only ever extends: a lock already later (a shorter policy, or COMPLIANCE set
 * earlier) is left as it is, and an object's mode is kept (S3 refuses turning GOVERNANCE into COMPLIANCE without a
 * bypass, and COMPLIANCE into anything else at all). It reads the policy when it runs, so two jobs after two edits
 * both extend to the latest policy; running again changes nothing.
 */

export const OBJECT_RETENTION_SYNC_JOB = 'object-retention-sync';
/** Payloads read per Query page. */
export const RETENTION_PAGE = 100;
/** A run stops after 4 minutes (the jobs function may run 5) and starts itself again where it stopped. */
export const JOB_RUN_MS = 4 * 60_000;
/** Object Lock calls in flight at once. */
const PARALLEL = 10;

/** States whose recording has a processed object (Deleted is logical: the object stays until destroyed). */
const WITH_OBJECT = new Set<string>(['Processed', 'Transferred', 'Deleted']);

export const ObjectRetentionSyncInput = z.object({
  client: ClientId,
  /** The types whose period grew; absent: every type. */
  payload_types: z.array(PayloadType).max(50).optional(),
  /** Where the last run stopped (a Query position on the tenant's payload list). */
  start_key: z.record(z.string(), z.string()).optional(),
  /** Objects extended by earlier runs of this sync (reported, not used). */
  extended: z.int().min(0).default(0),
  /** This sync's id (its running-job marker's): the policy change that started it, carried by each continuation. */
  sync_id: z.string().min(1).max(64).optional(),
});
export type ObjectRetentionSyncInput = z.infer<typeof ObjectRetentionSyncInput>;

/**
 * A sync as a long job (lambdas/jobs/running-jobs.ts): one marker per sync (two policy changes make two syncs), whose
 * input carries the Query position, so the job-sweep resumes a sync whose run died from the last page it reached.
 */
export function trackedRetentionSync(input: ObjectRetentionSyncInput & { sync_id: string }): TrackedJob {
  return { client: input.client, kind: 'object-retention-sync', id: input.sync_id, job: OBJECT_RETENTION_SYNC_JOB, input: { ...input } };
}

export type ObjectRetentionSyncDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock' | 'jobs' | 'config'>;

/** Budget of one run: a deadline, or (tests) a number of pages. */
export interface RunBudget {
  until?: Date;
  pages?: number;
}

export async function objectRetentionSyncJob(
  deps: ObjectRetentionSyncDependencies,
  rawInput: Record<string, unknown>,
  budget: RunBudget = { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) },
): Promise<Record<string, unknown>> {
  const input = ObjectRetentionSyncInput.parse(rawInput);
  const { client } = input;
  const tracked = input.sync_id === undefined ? undefined : trackedRetentionSync({ ...input, sync_id: input.sync_id });
  if (tracked !== undefined) await renewTrackedJob(deps, tracked, JOB_RUN_MS);
  const types = input.payload_types === undefined ? undefined : new Set<string>(input.payload_types);
  const policy = await getRetentionPolicy(deps, client);
  let startKey = input.start_key;
  let extended = input.extended;
  let pages = 0;
  do {
    const page = await deps.table.query({ ...keys.payload.list(client), limit: RETENTION_PAGE, ...(startKey === undefined ? {} : { startKey }) });
    const payloads = page.items.map(readPayload).filter((payload) => WITH_OBJECT.has(payload.payload_state) && (types === undefined || types.has(payload.payload_type)));
    for (let start = 0; start < payloads.length; start += PARALLEL) {
      const results = await Promise.all(
        payloads.slice(start, start + PARALLEL).map(async (payload) => {
          const wanted = objectRetentionFor(policy, payload, deps.config.OBJECT_LOCK_MODE, deps.clock.now());
          if (wanted === undefined) return false;
          const key = payloadObjectKey(client, payload.payload_reference);
          const current = await deps.blobs.getRetention('processed', key);
          if (current === undefined) return false;
          if (current !== null && current.retainUntil.getTime() >= wanted.retainUntil.getTime()) return false;
          return deps.blobs.setRetention('processed', key, { mode: current?.mode ?? wanted.mode, retainUntil: wanted.retainUntil });
        }),
      );
      extended += results.filter(Boolean).length;
    }
    startKey = page.lastKey;
    pages += 1;
    const spent =
      (budget.pages !== undefined && pages >= budget.pages) || (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
    if (startKey !== undefined && spent) {
      const next = { ...input, start_key: startKey, extended };
      // The marker carries the new position first: a continuation that never starts is resumed from here.
      if (input.sync_id !== undefined) await renewTrackedJob(deps, trackedRetentionSync({ ...next, sync_id: input.sync_id }), JOB_RUN_MS);
      await deps.jobs.start(OBJECT_RETENTION_SYNC_JOB, next);
      return { client, outcome: 'more', extended };
    }
  } while (startKey !== undefined);
  if (tracked !== undefined) await endTrackedJob(deps, tracked);
  return { client, outcome: 'done', extended };
}
