import * as z from 'zod';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { allClients } from '#core/store/all-clients.ts';
import { readRunningJob, type RunningJobItem } from '#core/store/entities/running-job.ts';
import { keys } from '#core/store/keys.ts';
import { leaseUntil } from './running-jobs.ts';
import { STUCK_JOB_KINDS, type SweepDependencies } from './stuck-job-kinds.ts';

/**
 * Job `job-sweep`: long jobs always finish (docs/decisions.md "Jobs that always finish"). It reads, per client, the
 * running-job markers whose lease has run out (gsi1, a key range up to now: a Query, never a Scan; clients from the
 * provider's account list, as `payload-sweep` does) and for each:
 *
 * - the job has ended (its end removes the marker; a marker left is stale): the marker is removed;
 * - an invocation still holds the job's own lease: the marker follows that lease, nothing is started;
 * - otherwise the job is resumed: the marker gets a new lease and one more resumption (conditionally on the lease
 *   it was read with, so two sweeps never both resume it), then the job is started with the marker's input and
 *   goes on from its checkpoint;
 * - a job that has not moved on (its kind's progress mark is the same) after JOB_RESUMPTION_LIMIT resumptions is
 *   ended Failed, or PartialFail when part of it was done, with the reason and an ops alert, never left InProgress.
 *
 * Scheduled every 5 minutes (lib/config/job-schedules.ts), and run by the local stack when it starts and whenever
 * a lease it saw runs out (scripts/local/jobs.ts).
 */
export const JOB_SWEEP = 'job-sweep';

/** The sweep's input: every tenant (a schedule), or one (`npm run job -- job-sweep --client <c>`, a test). */
export const JobSweepInput = z.object({ client: ClientId.optional() });

const PAGE = 100;
/** A run handles at most this many markers per client; the rest are due on the next run. */
const MAX_PER_CLIENT = 500;

export interface JobSweepReport {
  clients: number;
  /** Markers whose lease had run out. */
  due: number;
  resumed: number;
  /** Stale markers of jobs that had ended, removed. */
  cleared: number;
  /** Markers that follow a lease still held. */
  held: number;
  /** Jobs ended because they could not make progress. */
  given_up: number;
  failed: number;
  /** The soonest lease not yet run out, of any client (the local stack sweeps again then). */
  next_due?: string;
}

export async function sweepStuckJobs(deps: SweepDependencies, input: Record<string, unknown> = {}): Promise<JobSweepReport> {
  const { client: only } = JobSweepInput.parse(input);
  const now = deps.clock.now();
  const report: JobSweepReport = { clients: 0, due: 0, resumed: 0, cleared: 0, held: 0, given_up: 0, failed: 0 };
  for await (const client of only === undefined ? allClients(deps.table) : [only]) {
    report.clients += 1;
    let startKey: Record<string, string> | undefined;
    let read = 0;
    do {
      const page = await deps.table.query({
        ...keys.runningJob.listByLease(client),
        // Keys are `<lease_until ISO>#<kind>#<id>`: everything below now's text has run out.
        sort: { between: ['0', now.toISOString()] },
        limit: PAGE,
        ...(startKey ? { startKey } : {}),
      });
      for (const marker of page.items.map(readRunningJob)) {
        report.due += 1;
        read += 1;
        try {
          const outcome = await sweepOne(deps, marker, now);
          if (outcome !== 'raced') report[outcome] += 1;
        } catch (error) {
          report.failed += 1;
          deps.logger.warn('job sweep could not handle a stuck job', { client, kind: marker.kind, id: marker.id, error: error instanceof Error ? error.message : String(error) });
        }
      }
      startKey = read < MAX_PER_CLIENT ? page.lastKey : undefined;
    } while (startKey !== undefined);
    const next = await deps.table.query({ ...keys.runningJob.listByLease(client), sort: { between: [now.toISOString(), '~'] }, limit: 1 });
    const soonest = next.items[0] === undefined ? undefined : readRunningJob(next.items[0]).lease_until;
    if (soonest !== undefined && (report.next_due === undefined || soonest < report.next_due)) report.next_due = soonest;
  }
  return report;
}

type Outcome = 'resumed' | 'cleared' | 'held' | 'given_up' | 'raced';

async function sweepOne(deps: SweepDependencies, marker: RunningJobItem, now: Date): Promise<Outcome> {
  const kind = STUCK_JOB_KINDS[marker.kind];
  const standing = await kind.inspect(deps, marker);
  const key = keys.runningJob.key(marker.client, marker.kind, marker.id);
  const unchanged = sameLease(marker);
  if (standing.ended) {
    return (await conditionally(() => deps.table.delete(key, { condition: unchanged }))) ? 'cleared' : 'raced';
  }
  if (standing.heldUntil !== undefined && standing.heldUntil > now.toISOString()) {
    // An invocation holds the job's own lease (it claimed it without the marker's renewal reaching this read).
    const { gsi1sk } = keys.runningJob.item(marker.client, marker.kind, marker.id, standing.heldUntil);
    return (await conditionally(() => deps.table.update(key, { set: { lease_until: standing.heldUntil, gsi1sk } }, { condition: unchanged }))) ? 'held' : 'raced';
  }
  const stalled = standing.progress === marker.progress ? (marker.stalled ?? 0) + 1 : 1;
  const limit = deps.config.JOB_RESUMPTION_LIMIT;
  if (stalled > limit) {
    const reason = `The job made no progress in ${limit} resumption${limit === 1 ? '' : 's'} after its invocation stopped (${marker.resumptions ?? 0} in all)`;
    const ended = await kind.giveUp(deps, marker, reason);
    deps.logger.error('stuck job ended: no progress after resumptions', { client: marker.client, kind: marker.kind, id: marker.id, ended });
    // An end that did not happen (an invocation took the job meanwhile) leaves the marker for the next sweep.
    if (ended === 'unchanged') return 'raced';
    // The job's end removed its marker (transfers, migrations); a job with no record of its own ends with its marker.
    await conditionally(() => deps.table.delete(key, { condition: unchanged }));
    return 'given_up';
  }
  const until = leaseUntil(deps.config, now);
  const { gsi1sk } = keys.runningJob.item(marker.client, marker.kind, marker.id, until);
  const claimed = await conditionally(() =>
    deps.table.update(
      key,
      { set: { lease_until: until.toISOString(), gsi1sk, progress: standing.progress, stalled, resumed_at: now.toISOString() }, add: { resumptions: 1 } },
      { condition: unchanged },
    ),
  );
  if (!claimed) return 'raced';
  await deps.jobs.start(marker.job, marker.input);
  deps.logger.warn('stuck job resumed', { client: marker.client, kind: marker.kind, id: marker.id, resumption: (marker.resumptions ?? 0) + 1, stalled });
  return 'resumed';
}

/** The marker as it was read: a job that renewed it meanwhile, or another sweep, has moved its lease. */
function sameLease(marker: RunningJobItem) {
  return { kind: 'expression' as const, expression: '#until = :until', names: { '#until': 'lease_until' }, values: { ':until': marker.lease_until } };
}

async function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
