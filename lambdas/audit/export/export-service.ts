import { createHash, randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { Dependencies } from '../../core/dependencies.ts';
import { actorOf } from '../../core/auth/actor.ts';
import { ForbiddenError, NotFoundError } from '../../core/errors.ts';
import type { TenantCaller } from '../../core/http/caller.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { ActivityExport, type ActivityExportRequest } from '#shared/contract/entities/activity-export.ts';
import { buildActivityExport } from './export-file.ts';
import { ACTIVITY_EXPORT_ENTITY, activityExportKey, activityExportObjectKey } from './export-store.ts';
import { auditSigningPublicKeyPem } from './signing-public-key.ts';

/** The job that writes an export's file (lambdas/jobs/jobs.ts). */
export const ACTIVITY_EXPORT_JOB = 'activity-export';
/** How long a download link works. */
const DOWNLOAD_LINK_SECONDS = 300;
/**
 * An export still Running this long after it was asked for has died: the job runs in one invocation of at most 5
 * minutes, retried twice by Lambda. It is shown Failed rather than running forever (the state says what is true).
 */
const EXPORT_DEAD_AFTER_MS = 30 * 60_000;

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
  await deps.table.put({ ...activityExportKey(client, exportId), entity: ACTIVITY_EXPORT_ENTITY, client, ...state }, { condition: { kind: 'item-not-exists' } });
  await deps.jobs.start(ACTIVITY_EXPORT_JOB, { client, export_id: exportId });
  return state;
}

/** `GET activities/exports/{export_id}`: progress, and when Completed a short-lived download link. */
export async function readActivityExport(caller: TenantCaller, exportId: string): Promise<ActivityExport> {
  const item = await caller.deps.table.get(activityExportKey(caller.tenant, exportId), { consistent: true });
  if (item === undefined) throw new NotFoundError('No such export');
  const state = storedExport(item);
  if (state.state === 'Running' && caller.deps.clock.now().getTime() - Date.parse(state.requested_at) > EXPORT_DEAD_AFTER_MS) {
    return { ...state, state: 'Failed', failure: 'The export job stopped without finishing: request the export again' };
  }
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
      state: 'Completed',
      records_written: description.records,
      records_total: description.records,
      completed_at: deps.clock.now().toISOString(),
      sha256: createHash('sha256').update(archive).digest('hex'),
      bytes: archive.length,
    };
    await deps.table.update(key, { set: done });
    return { export_id: exportId, records: description.records, bytes: archive.length };
  } catch (error) {
    const failure = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    await deps.table.update(key, { set: { state: 'Failed', failure, completed_at: deps.clock.now().toISOString() } });
    throw error;
  }
}
