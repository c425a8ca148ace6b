import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError, type UpdateSpec, type WriteCondition } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { readHold } from './coverage.ts';
import { HOLD_PAGE, walkHoldPage, WalkPosition } from './object-holds.ts';

/**
 * Keeping the recordings' S3 objects in step with a device user's hold, however many there are (docs/decisions.md
 * "Legal holds"). Placing or releasing the hold stamps a new walk on the hold item (`sync_id`, `sync_state: Syncing`,
 * `objects_synced: 0`). The request walks the first pages itself, so a small hold is in step when it answers; a larger
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

/** Writes a walk's progress on the hold item, only while the walk is still the item's; false once it is not. */
async function recordProgress(deps: Pick<Dependencies, 'table'>, client: string, deviceUser: string, syncId: string, update: UpdateSpec): Promise<boolean> {
  try {
    await deps.table.update(keys.legalHold.key(client, 'DeviceUser', deviceUser), update, { condition: sameWalk(syncId) });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

function positionOf(saved: string | undefined): WalkPosition {
  if (saved === undefined) return {};
  try {
    const parsed = WalkPosition.safeParse(JSON.parse(saved));
    // An unreadable position starts the walk over: every step is idempotent, so that only costs time.
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * Walks the hold's current walk on from where it stopped, page by page, within `budget`. Answers `done` (every
 * covered object in step, `sync_state: Synced`), `more` (the budget ran out; the position is saved) or `superseded`
 * (a newer placing or release owns the item now).
 */
export async function continueHoldSync(
  deps: HoldSyncDependencies,
  client: string,
  deviceUser: string,
  syncId: string,
  budget: WalkBudget = {},
): Promise<WalkOutcome> {
  const hold = await readHold(deps, client, { targetType: 'DeviceUser', target: deviceUser });
  if (hold === undefined || hold.sync_id !== syncId) return 'superseded';
  const direction = hold.is_active ? 'on' : 'off';
  let position = positionOf(hold.sync_position);
  let pages = 0;
  let objects = 0;
  for (;;) {
    const page = await walkHoldPage(deps, client, deviceUser, direction, position);
    pages += 1;
    objects += page.objects;
    const done = page.next === undefined;
    const saved = await recordProgress(deps, client, deviceUser, syncId, {
      set: { sync_state: done ? 'Synced' : 'Syncing', ...(done ? {} : { sync_position: JSON.stringify(page.next) }) },
      add: { objects_synced: page.objects },
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
export async function markSyncFailed(deps: Pick<Dependencies, 'table'>, client: string, deviceUser: string, syncId: string, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message : String(error);
  await recordProgress(deps, client, deviceUser, syncId, { set: { sync_state: 'Failed', sync_error: reason.slice(0, 500) } });
}

/** What the job receives: the tenant, the held device user and the walk it continues. */
export const LegalHoldSyncInput = z.object({ client: ClientId, target: z.string().min(1).max(255), sync_id: z.string().min(1).max(64) });
export type LegalHoldSyncInput = z.infer<typeof LegalHoldSyncInput>;

/**
 * The `legal-hold-sync` job: walks on for one run (JOB_RUN_MS, or `budget`), then starts itself again with the same
 * input if there is more. A failure marks the walk Failed and throws, so Lambda retries the run; the retry resumes
 * from the last saved page.
 */
export async function legalHoldSyncJob(
  deps: HoldSyncDependencies & Pick<Dependencies, 'jobs'>,
  input: Record<string, unknown>,
  budget?: WalkBudget,
): Promise<Record<string, unknown>> {
  const { client, target, sync_id: syncId } = LegalHoldSyncInput.parse(input);
  let outcome: WalkOutcome;
  try {
    outcome = await continueHoldSync(deps, client, target, syncId, budget ?? { until: new Date(deps.clock.now().getTime() + JOB_RUN_MS) });
  } catch (error) {
    await markSyncFailed(deps, client, target, syncId, error);
    throw error;
  }
  if (outcome === 'more') await deps.jobs.start(LEGAL_HOLD_SYNC_JOB, { client, target, sync_id: syncId });
  const hold = await readHold(deps, client, { targetType: 'DeviceUser', target });
  return { client, outcome, objects_synced: hold?.objects_synced ?? 0 };
}
