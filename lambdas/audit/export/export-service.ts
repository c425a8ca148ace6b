import { createHash, randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { Dependencies } from '../../core/dependencies.ts';
import { actorOf } from '../../core/auth/actor.ts';
import { ForbiddenError, NotFoundError } from '../../core/errors.ts';
import { ConditionFailedError, type WriteCondition } from '../../core/ports/table-store.ts';
import type { TenantCaller } from '../../core/http/caller.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { ActivityExport, type ActivityExportRequest } from '#shared/contract/entities/activity-export.ts';
import { buildActivityExport } from './export-file.ts';
import { ACTIVITY_EXPORT_ENTITY, activityExportKey, activityExportObjectKey } from './export-store.ts';
import { auditSigningPublicKeyPem } from './signing-public-key.ts';
import { endMarkerOperation, leaseUntil, renewTrackedJob, startMarkerOperation, type TrackedJob } from '../../jobs/public.ts';

/** The job that writes an export's file (lambdas/jobs/jobs.ts). */
export const ACTIVITY_EXPORT_JOB = 'activity-export';
/** How long a download link works. */
const DOWNLOAD_LINK_SECONDS = 300;

/**
 * The export as a long job the job-sweep watches (lambdas/jobs/stuck-job-kinds.ts): its marker is written with the
 * export, renewed as the job starts and removed with its end, so an invocation that dies leaves a marker whose lease
 * runs out; the sweep starts the job again (the file is built whole by one invocation, so it starts over) and ends the
 * export Failed, with why, when restarts make no progress. Never Running forever.
 */
export const trackedExport = (client: string, exportId: string): TrackedJob => ({
  client,
  kind: 'activity-export',
  id: exportId,
  job: ACTIVITY_EXPORT_JOB,
  input: { client, export_id: exportId },
});

const STILL_RUNNING: WriteCondition = { kind: 'expression', expression: '#state = :running', names: { '#state': 'state' }, values: { ':running': 'Running' } };

const storedExport = (item: Record<string, unknown>): ActivityExport => ActivityExport.parse(Object.fromEntries(Object.entries(item).filter(([name]) => name in ActivityExport.shape)));

/**
 * `POST activities/exports`: records the export Running and starts its job. The whole trail is every group's, so
 * only a caller whose export right no group condition narrows may take it.
 */
export async function startActivityExport(caller: TenantCaller, request: z.output<typeof ActivityExportRequest>): Promise<ActivityExport> {
  if (!caller.groupScope().unrestricted) throw new ForbiddenError('Exporting the audit trail needs the right over every group');
  const { deps, tenant: client } = caller;
  const exportId = randomUUID();
  const state: ActivityExport = {
    export_id: exportId,
    trail: request.trail,
    from: new Date(request.from).toISOString(),
    to: new Date(request.to).toISOString(),
    state: 'Running',
    records_written: 0,
    records_total: 0,
    requested_at: deps.clock.now().toISOString(),
    requested_by: actorOf(caller.principal),
  };
  const tracked = trackedExport(client, exportId);
  const now = deps.clock.now();
  // The export and its marker in one transaction: an export is never Running without a marker the sweep can find.
  await deps.table.transactWrite([
    { kind: 'put', item: { ...activityExportKey(client, exportId), entity: ACTIVITY_EXPORT_ENTITY, client, ...state }, condition: { kind: 'item-not-exists' } },
    startMarkerOperation(tracked, leaseUntil(deps.config, now), now),
  ]);
  // A start that is lost leaves the marker to run out: the sweep starts the job then.
  await deps.jobs.start(tracked.job, tracked.input);
  return state;
}

/** `GET activities/exports/{export_id}`: progress, and when Completed a short-lived download link. */
export async function readActivityExport(caller: TenantCaller, exportId: string): Promise<ActivityExport> {
  const item = await caller.deps.table.get(activityExportKey(caller.tenant, exportId), { consistent: true });
  if (item === undefined) throw new NotFoundError('No such export');
  const state = storedExport(item);
  if (state.state !== 'Completed') return state;
  const downloadName = `activity-${state.trail}-${state.from.slice(0, 10)}-${state.to.slice(0, 10)}-${exportId.slice(0, 8)}.tar`;
  return { ...state, download_url: await caller.deps.blobs.presignGet('processed', activityExportObjectKey(caller.tenant, exportId), { expiresInSeconds: DOWNLOAD_LINK_SECONDS, downloadName }) };
}

const ExportJobInput = z.object({ client: ClientId, export_id: z.string().min(1).max(64) });

/**
 * The `activity-export` job: builds the file (./export-file.ts), writing its progress after each page of links, puts
 * it in the processed bucket and marks the export Completed with the file's SHA-256, or Failed with why. An export
 * no longer Running (done, or run twice by a retried invocation) is left alone.
 */
export async function activityExportJob(deps: Pick<Dependencies, 'table' | 'keys' | 'clock' | 'blobs' | 'config'>, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { client, export_id: exportId } = ExportJobInput.parse(input);
  const key = activityExportKey(client, exportId);
  const item = await deps.table.get(key, { consistent: true });
  if (item === undefined) return { skipped: 'no such export' };
  const state = storedExport(item);
  if (state.state !== 'Running') return { skipped: state.state };
  const tracked = trackedExport(client, exportId);
  // This invocation holds the export for its run: the marker's lease covers the longest a jobs invocation lives.
  await renewTrackedJob(deps, tracked);
  try {
    const { keyId, pem } = await auditSigningPublicKeyPem(deps);
    const { archive, description } = await buildActivityExport(
      { client, trail: state.trail, from: state.from, to: state.to },
      {
        deps,
        signingKeyId: keyId,
        publicKeyPem: pem,
        onProgress: async (written, total) => {
          await deps.table.update(key, { set: { records_written: written, records_total: total } });
        },
      },
    );
    await deps.blobs.put('processed', activityExportObjectKey(client, exportId), archive, { contentType: 'application/x-tar' });
    const done = {
      state: 'Completed' as const,
      records_written: description.records,
      records_total: description.records,
      completed_at: deps.clock.now().toISOString(),
      sha256: createHash('sha256').update(archive).digest('hex'),
      bytes: archive.length,
    };
    // Completed with the marker's removal, in one transaction; a `failure` a sweep wrote meanwhile goes, the file is whole.
    await deps.table.transactWrite([{ kind: 'update', key, update: { set: done, remove: ['failure'] } }, endMarkerOperation(client, tracked.kind, exportId)]);
    return { export_id: exportId, records: description.records, bytes: archive.length };
  } catch (error) {
    const failure = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    // Failed only while still Running (a retried invocation of a completed export must not undo it), marker removed.
    try {
      await deps.table.transactWrite([
        { kind: 'update', key, update: { set: { state: 'Failed', failure, completed_at: deps.clock.now().toISOString() } }, condition: STILL_RUNNING },
        endMarkerOperation(client, tracked.kind, exportId),
      ]);
    } catch (ended) {
      if (!(ended instanceof ConditionFailedError)) throw ended;
    }
    throw error;
  }
}

/**
 * Ends an export whose job the sweep could not get going again (lambdas/jobs/stuck-job-kinds.ts): Failed with why,
 * only while it is still Running. False when it had ended meanwhile (the sweep then leaves it as it is).
 */
export async function endStuckActivityExport(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, exportId: string, reason: string): Promise<boolean> {
  try {
    await deps.table.update(
      activityExportKey(client, exportId),
      { set: { state: 'Failed', failure: `The export job stopped without finishing (${reason}): request the export again`, completed_at: deps.clock.now().toISOString() } },
      { condition: STILL_RUNNING },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** Where an export stands, for the sweep: absent, ended, or Running with its records written of the total. */
export async function activityExportStanding(deps: Pick<Dependencies, 'table'>, client: string, exportId: string): Promise<{ running: false } | { running: true; progress: string }> {
  const item = await deps.table.get(activityExportKey(client, exportId), { consistent: true });
  if (item === undefined) return { running: false };
  const state = storedExport(item);
  return state.state === 'Running' ? { running: true, progress: `${state.records_written}|${state.records_total}` } : { running: false };
}
