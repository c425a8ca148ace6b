import type { Dependencies } from '#core/dependencies.ts';
import { readMigration } from '#core/store/entities/migration.ts';
import type { RunningJobItem, RunningJobKind } from '#core/store/entities/running-job.ts';
import { productionKeys, readProduction } from '#core/store/entities/production.ts';
import { readTransfer } from '#core/store/entities/transfer.ts';
import { keys } from '#core/store/keys.ts';
import { LEGAL_HOLD_TARGET_TYPES } from '#shared/constants/account.ts';
import { readHold, type HoldTarget } from '../account-data/public.ts';
import { markSyncFailed } from '../account-data/public.ts';
import { raiseAlert } from '../alerts/public.ts';
import { activityExportStanding, endStuckActivityExport } from '../audit/public.ts';
import { endMigration } from '../migrations/public.ts';
import { endStuckTransfer } from '../transfers/public.ts';
import { endStuckProduction } from '../cases/public.ts';
import { endStuckErasure, erasureStanding } from '../account-data/public.ts';
import { applyStanding, endStuckApply } from '../supervision/public.ts';

/**
 * What the job-sweep (./job-sweep.ts) needs of each kind of long job: whether the job has ended (its marker is then
 * stale and removed), how far it has got (so resumptions that move it on are told from those that do not), and how to
 * end it when it cannot make progress: Failed (or PartialFail when part of it was done), with its error and an ops
 * alert, never left running.
 */
export interface StuckJobKind {
  inspect(deps: SweepDependencies, marker: RunningJobItem): Promise<JobStanding>;
  giveUp(deps: SweepDependencies, marker: RunningJobItem, reason: string): Promise<string>;
}

export type JobStanding = { ended: true } | { ended: false; progress: string; heldUntil?: string };

export type SweepDependencies = Pick<Dependencies, 'table' | 'clock' | 'jobs' | 'logger' | 'config'>;

const transfer: StuckJobKind = {
  async inspect(deps, marker) {
    const stored = await deps.table.get(keys.transfer.key(marker.client, marker.id), { consistent: true });
    if (stored === undefined) return { ended: true };
    const run = readTransfer(stored);
    if (run.transfer_state !== 'Pending' && run.transfer_state !== 'InProgress') return { ended: true };
    const progress = [run.selection_cursor ?? '', run.selection_done === true, run.files_total ?? 0, run.files_done ?? 0, run.files_failed ?? 0].join('|');
    return { ended: false, progress, ...(run.lease_until === undefined ? {} : { heldUntil: run.lease_until }) };
  },
  async giveUp(deps, marker, reason) {
    return (await endStuckTransfer(deps, marker.client, marker.id, reason)) ?? 'unchanged';
  },
};

const migration: StuckJobKind = {
  async inspect(deps, marker) {
    const stored = await deps.table.get(keys.migration.key(marker.client, marker.id), { consistent: true });
    if (stored === undefined) return { ended: true };
    const item = readMigration(stored);
    if (item.migration_state !== 'Pending') return { ended: true };
    return { ended: false, progress: [item.checkpoint_row, item.scanned_at ?? ''].join('|') };
  },
  async giveUp(deps, marker, reason) {
    const stored = await deps.table.get(keys.migration.key(marker.client, marker.id), { consistent: true });
    if (stored === undefined) return 'unchanged';
    const item = readMigration(stored);
    // Rows already imported stay imported: an import cut short after some rows is a partial one.
    const state = item.checkpoint_row > 0 ? 'PartialFail' : 'Failed';
    const message = `${reason}; rows up to ${item.checkpoint_row} were imported, the rest were not`;
    return (await endMigration(deps, item, { state, message })) ? state : 'unchanged';
  },
};

function holdOf(marker: RunningJobItem): HoldTarget {
  const type = marker.input.target_type;
  const targetType = LEGAL_HOLD_TARGET_TYPES.find((known) => known === type) ?? 'DeviceUser';
  return { targetType, target: String(marker.input.target) };
}

const legalHoldSync: StuckJobKind = {
  async inspect(deps, marker) {
    const hold = await readHold(deps, marker.client, holdOf(marker));
    // A newer placing or release started a walk of its own (with its own marker), or the walk is through.
    if (hold === undefined || hold.sync_id !== marker.run) return { ended: true };
    if (hold.sync_position === undefined && hold.sync_state !== 'Syncing') return { ended: true };
    return { ended: false, progress: [hold.objects_synced ?? 0, hold.sync_position ?? ''].join('|') };
  },
  async giveUp(deps, marker, reason) {
    const held = holdOf(marker);
    await raiseAlert(deps, marker.client, {
      scope: 'ops',
      type: 'AccountAlert',
      subject: 'Legal hold not applied to every recording',
      key: `legal-hold-sync:${held.targetType}:${held.target}`,
      keyType: 'Scoped',
      message: `The walk applying the legal hold on ${held.targetType} ${held.target} to its recordings stopped: ${reason}. Place or release the hold again to walk it again.`,
      severity: 'High',
    });
    await markSyncFailed(deps, { client: marker.client, target: held, syncId: marker.run ?? '' }, new Error(reason));
    return 'Failed';
  },
};

const objectRetentionSync: StuckJobKind = {
  async inspect(_deps, marker) {
    return { ended: false, progress: [JSON.stringify(marker.input.start_key ?? null), String(marker.input.extended ?? 0)].join('|') };
  },
  async giveUp(deps, marker, reason) {
    await raiseAlert(deps, marker.client, {
      scope: 'ops',
      type: 'AccountAlert',
      subject: 'Retention locks not extended on every recording',
      key: `object-retention-sync:${marker.id}`,
      keyType: 'Scoped',
      message: `The job extending the recordings' Object Lock retention to a longer policy stopped: ${reason}. Recordings after the last one it reached may keep the shorter lock; save the retention policy again to run it again.`,
      severity: 'High',
    });
    return 'Failed';
  },
};

const production: StuckJobKind = {
  async inspect(deps, marker) {
    const stored = await deps.table.get(productionKeys.key(marker.client, marker.id), { consistent: true });
    if (stored === undefined) return { ended: true };
    const item = readProduction(stored);
    if (item.production_state !== 'Pending' && item.production_state !== 'InProgress') return { ended: true };
    // A resumed production starts again from its selection (its control numbers kept), so progress is the documents written.
    return { ended: false, progress: [item.documents_done, item.control_first ?? ''].join('|') };
  },
  async giveUp(deps, marker, reason) {
    return (await endStuckProduction(deps, marker.client, marker.id, reason)) ? 'Failed' : 'unchanged';
  },
};

/** An activity export: built whole by one invocation, so a resumption starts it over; progress is records written. */
const activityExport: StuckJobKind = {
  async inspect(deps, marker) {
    const standing = await activityExportStanding(deps, marker.client, marker.id);
    return standing.running ? { ended: false, progress: standing.progress } : { ended: true };
  },
  async giveUp(deps, marker, reason) {
    return (await endStuckActivityExport(deps, marker.client, marker.id, reason)) ? 'Failed' : 'unchanged';
  },
};

/** A supervision policy's apply to a past period: its run on the policy says whether it goes on and how far it got. */
const supervisionApply: StuckJobKind = {
  async inspect(deps, marker) {
    const standing = await applyStanding(deps, marker.client, marker.id, marker.run);
    return standing.running ? { ended: false, progress: standing.progress } : { ended: true };
  },
  async giveUp(deps, marker, reason) {
    if (!(await endStuckApply(deps, marker.client, marker.id, marker.run ?? '', reason))) return 'unchanged';
    await raiseAlert(deps, marker.client, {
      scope: 'ops',
      type: 'AccountAlert',
      subject: 'Supervision policy not applied to the whole period',
      key: `supervision-apply:${marker.id}`,
      keyType: 'Scoped',
      message: `Applying supervision policy ${marker.id} to a past period stopped: ${reason}. Apply the policy again to raise the items of the rest of the period.`,
      severity: 'High',
    });
    return 'Failed';
  },
};

/** The daily sampling minimum: no record of its own; its marker's input is its position, so progress is that input. */
const supervisionDaily: StuckJobKind = {
  async inspect(_deps, marker) {
    const { at, after, start_key: startKey, topped_up: toppedUp } = marker.input;
    return { ended: false, progress: JSON.stringify([at ?? null, after ?? null, startKey ?? null, toppedUp ?? 0]) };
  },
  async giveUp(deps, marker, reason) {
    await raiseAlert(deps, marker.client, {
      scope: 'ops',
      type: 'AccountAlert',
      subject: 'Daily sampling minimum not applied to every person',
      key: `supervision-daily:${marker.id}`,
      keyType: 'Scoped',
      message: `The job topping up each person's sampled recordings of ${marker.id} to the policies' minimum stopped: ${reason}. Run it again for that day (supervision-daily with its day) to top up the people it did not reach.`,
      severity: 'High',
    });
    return 'Failed';
  },
};

/** An erasure request's decision or run: its request says whether the walk goes on and how far it got. */
const erasure = (phase: 'decision' | 'run'): StuckJobKind => ({
  async inspect(deps, marker) {
    const standing = await erasureStanding(deps, marker.client, marker.id, phase);
    return standing.running ? { ended: false, progress: standing.progress } : { ended: true };
  },
  async giveUp(deps, marker, reason) {
    if (!(await endStuckErasure(deps, marker.client, marker.id, phase, reason))) return 'unchanged';
    await raiseAlert(deps, marker.client, {
      scope: 'ops',
      type: 'AccountAlert',
      subject: `Erasure request's ${phase} stopped`,
      key: `erasure-${phase}:${marker.id}`,
      keyType: 'Scoped',
      message: `The ${phase} of erasure request ${marker.id} stopped: ${reason}. What was erased before stays erased with its disposal records; record the request again to finish it.`,
      severity: 'High',
    });
    return 'Failed';
  },
});

/** Every kind of long job the sweep watches, by the marker's `kind`. */
export const STUCK_JOB_KINDS: Readonly<Record<RunningJobKind, StuckJobKind>> = {
  transfer,
  migration,
  'legal-hold-sync': legalHoldSync,
  'object-retention-sync': objectRetentionSync,
  production,
  'activity-export': activityExport,
  'supervision-apply': supervisionApply,
  'supervision-daily': supervisionDaily,
  'erasure-decision': erasure('decision'),
  'erasure-run': erasure('run'),
};
