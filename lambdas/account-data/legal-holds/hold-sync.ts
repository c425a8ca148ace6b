import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type UpdateSpec, type WriteCondition } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { LEGAL_HOLD_TARGET_TYPES } from '#shared/constants/account.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { readHold, type HoldTarget } from './coverage.ts';
import { HOLD_PAGE, walkHoldPage, WalkPosition } from './object-holds.ts';
import { releaseParkedPage } from './parked-markers.ts';
import { endTrackedJob, renewTrackedJob, type TrackedJob } from '../../jobs/public.ts';

/**
 * Keeping the recordings' S3 objects in step with a device user's hold, however many there are (docs/decisions.md
 * "Legal holds"), and on release, putting back the due markers the retention job parked under the hold (a portal
 * user's hold too; parked-markers.ts). Placing or releasing the hold stamps a new walk on the hold item (`sync_id`,
 * and for a device user `sync_state: Syncing`, `objects_synced: 0`). The request walks the first pages itself, so a small hold is in step when it answers; a larger
 * one is handed to the `legal-hold-sync` job, which walks the rest a Query page at a time, saving its position and
 * progress on the hold item after each page, and starts itself again before its time runs out. A walk writes only
 * while its id is still the item's: a newer placing or release supersedes it, and the newer walk decides.
 */

export const LEGAL_HOLD_SYNC_JOB = 'legal-hold-sync';

export type HoldSyncDependencies = Pick<Dependencies, 'table' | 'blobs' | 'clock'>;

/** How much one run may walk: pages, objects, and a deadline (whichever comes first; none given: to the end). */
export interface WalkBudget {
  pages?: number;
  objects?: number;
  until?: Date;
}

/** The request walks until it has met a page's worth of objects (a small hold finishes here), at most 10 pages. */
export const REQUEST_BUDGET: WalkBudget = { objects: HOLD_PAGE, pages: 10 };
/** A job run stops after 4 minutes (the jobs function may run 5) and starts itself again from where it stopped. */
export const JOB_RUN_MS = 4 * 60_000;

export type WalkOutcome = 'done' | 'more' | 'superseded';

const sameWalk = (syncId: string): WriteCondition => ({
  kind: 'expression',
  expression: '#sync = :sync',
  names: { '#sync': 'sync_id' },
  values: { ':sync': syncId },
});

/** One walk of one hold: the tenant, whose hold (a device user's reference, or any hold's target), and its sync id. */
export interface HoldWalk<T extends string | HoldTarget = HoldTarget> {
  client: string;
  target: T;
  syncId: string;
}

/** Writes a walk's progress on the hold item, only while the walk is still the item's; false once it is not. */
async function recordProgress(deps: Pick<Dependencies, 'table'>, { client, target: hold, syncId }: HoldWalk, update: UpdateSpec): Promise<boolean> {
  try {
    await deps.table.update(keys.legalHold.key(client, hold.targetType, hold.target), update, { condition: sameWalk(syncId) });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/**
 * Where a walk stands: on the recordings' objects (a device user's hold; object-holds.ts), then, on release, on the
 * markers parked under the hold (`parked`, with its Query position).
 */
const ParkedPosition = z.object({ parked: z.object({ start_key: z.record(z.string(), z.string()).optional() }) });
type SyncPosition = WalkPosition | z.infer<typeof ParkedPosition>;

function positionOf(saved: string | undefined): SyncPosition {
  if (saved === undefined) return {};
  try {
    const value: unknown = JSON.parse(saved);
    const parked = ParkedPosition.safeParse(value);
    if (parked.success) return parked.data;
    const parsed = WalkPosition.safeParse(value);
    // An unreadable position starts the walk over: every step is idempotent, so that only costs time.
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** One page of a walk: objects met, and where it goes on (undefined: done). */
async function walkPage(deps: HoldSyncDependencies, client: string, hold: HoldTarget, { direction, position }: { direction: 'on' | 'off'; position: SyncPosition }) {
  if (!('parked' in position) && hold.targetType === 'DeviceUser') {
    const page = await walkHoldPage(deps, client, hold.target, { direction, position });
    // Released: the markers the retention job parked under the hold come next.
    return { objects: page.objects, next: page.next ?? (direction === 'off' ? { parked: {} } : undefined) };
  }
  if (direction === 'on') return { objects: 0, next: undefined };
  const startKey = 'parked' in position ? position.parked.start_key : undefined;
  const page = await releaseParkedPage(deps, client, hold, startKey);
  return { objects: 0, next: page.more ? { parked: page.startKey === undefined ? {} : { start_key: page.startKey } } : undefined };
}

/**
 * Walks the hold's current walk on from where it stopped, page by page, within `budget`. Answers `done` (every
 * covered object in step, `sync_state: Synced`), `more` (the budget ran out; the position is saved) or `superseded`
 * (a newer placing or release owns the item now). `target` is a device user's reference, or any hold's target.
 */
export async function continueHoldSync(deps: HoldSyncDependencies, walk: HoldWalk<string | HoldTarget>, budget: WalkBudget = {}): Promise<WalkOutcome> {
  const { client, target, syncId } = walk;
  const held: HoldTarget = typeof target === 'string' ? { targetType: 'DeviceUser', target } : target;
  const hold = await readHold(deps, client, held);
  if (hold === undefined || hold.sync_id !== syncId) return 'superseded';
  const direction = hold.is_active ? 'on' : 'off';
  // A portal user's hold has no objects: its item shows no object walk, only its position.
  const objectWalk = held.targetType === 'DeviceUser';
  let position = positionOf(hold.sync_position);
  let pages = 0;
  let objects = 0;
  for (;;) {
    const page = await walkPage(deps, client, held, { direction, position });
    pages += 1;
    objects += page.objects;
    const done = page.next === undefined;
    const saved = await recordProgress(deps, { client, target: held, syncId }, {
      set: { ...(objectWalk ? { sync_state: done ? 'Synced' : 'Syncing' } : {}), ...(done ? {} : { sync_position: JSON.stringify(page.next) }) },
      ...(objectWalk ? { add: { objects_synced: page.objects } } : {}),
      remove: ['sync_error', ...(done ? ['sync_position'] : [])],
    });
    if (!saved) return 'superseded';
    if (page.next === undefined) return 'done';
    position = page.next;
    const spent =
      (budget.pages !== undefined && pages >= budget.pages) ||
      (budget.objects !== undefined && objects >= budget.objects) ||
      (budget.until !== undefined && deps.clock.now().getTime() >= budget.until.getTime());
    if (spent) return 'more';
  }
}

/** Marks the walk Failed with the reason (while it is still the item's), so the screen shows it stopped. */
export async function markSyncFailed(deps: Pick<Dependencies, 'table'>, walk: HoldWalk, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message : String(error);
  await recordProgress(deps, walk, { set: { sync_state: 'Failed', sync_error: reason.slice(0, 500) } });
}

/** What the job receives: the tenant, the hold (a device user's unless `target_type` says) and the walk it continues. */
export const LegalHoldSyncInput = z.object({
  client: ClientId,
  target: z.string().min(1).max(255),
  target_type: z.enum(LEGAL_HOLD_TARGET_TYPES).optional(),
  sync_id: z.string().min(1).max(64),
});
export type LegalHoldSyncInput = z.infer<typeof LegalHoldSyncInput>;

/**
 * A hold's walk as a long job (lambdas/jobs/running-jobs.ts): one marker per hold, keyed by its target, naming the walk
 * (`run`: its sync id), so a newer placing or release takes the marker over and the older walk's job leaves it alone.
 */
export function trackedHoldSync(input: LegalHoldSyncInput): TrackedJob {
  return { client: input.client, kind: 'legal-hold-sync', id: `${input.target_type ?? 'DeviceUser'}#${input.target}`, job: LEGAL_HOLD_SYNC_JOB, input: { ...input }, run: input.sync_id };
}

/**
 * The `legal-hold-sync` job: walks on for one run (JOB_RUN_MS, or `budget`), then starts itself again with the same
 * input if there is more. A failure marks the walk Failed and throws, so Lambda retries the run; the retry resumes
 * from the last saved page. Each run renews the walk's running-job marker; the walk's end (done, or superseded by a
 * newer walk) removes it, so a run that dies is resumed by the job-sweep.
 */
export async function legalHoldSyncJob(
  deps: HoldSyncDependencies & Pick<Dependencies, 'jobs' | 'config'>,
  input: Record<string, unknown>,
  budget?: WalkBudget,
): Promise<Record<string, unknown>> {
  const parsed = LegalHoldSyncInput.parse(input);
  const { client, target, sync_id: syncId } = parsed;
  const held: HoldTarget = { targetType: parsed.target_type ?? 'DeviceUser', target };
  const tracked = trackedHoldSync(parsed);
  await renewTrackedJob(deps, tracked, JOB_RUN_MS);
  let outcome: WalkOutcome;
  try {
    outcome = await continueHoldSync(deps, { client, target: held, syncId }, budget ?? { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) });
  } catch (error) {
    await markSyncFailed(deps, { client, target: held, syncId }, error);
    throw error;
  }
  if (outcome === 'more') {
    await renewTrackedJob(deps, tracked, JOB_RUN_MS);
    await deps.jobs.start(LEGAL_HOLD_SYNC_JOB, parsed);
  } else {
    await endTrackedJob(deps, { ...tracked, run: syncId });
  }
  const hold = await readHold(deps, client, held);
  return { client, outcome, objects_synced: hold?.objects_synced ?? 0 };
}
