import * as z from 'zod';
import { ClientId } from '#shared/contract/fields.ts';
import { writeCheckpoint } from '../audit/public.ts';
import { linkPending } from '../audit/public.ts';
import { auditSigningKeyId } from '../audit/public.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { allClients } from '#core/store/all-clients.ts';
import { ACTIVITY_TRAILS, type ActivityTrail } from '#core/store/keys.ts';

/**
 * The audit trails' sequencer and checkpoints as jobs (lambdas/audit/trail/sequencer.ts, checkpoint.ts).
 *
 * - `audit-sequencer` (every 5 minutes, lib/config/job-schedules.ts): for every tenant (and the provider's own,
 *   `admin`, where staff calls are recorded) links what waits, then signs each trail's head. It is the safety net
 *   behind the Streams trigger and the clock of the checkpoints.
 * - DynamoDB Streams (AWS): a batch of new records runs `linkTrails` for the tenants named in it (`auditStreamTargets`).
 */

/** Every tenant whose trails the sweep visits: the accounts, and `admin`. */
async function tenants(deps: Pick<Dependencies, 'table'>): Promise<string[]> {
  const clients = new Set<string>(['admin']);
  for await (const client of allClients(deps.table)) clients.add(client);
  return [...clients];
}

/** Links the waiting records of both trails of one tenant. */
export async function linkTrails(deps: Pick<Dependencies, 'table' | 'clock'>, client: string): Promise<number> {
  let linked = 0;
  for (const trail of ACTIVITY_TRAILS) linked += (await linkPending(deps, trail, client)).linked;
  return linked;
}

export async function auditSequencerJob(deps: Dependencies, input: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const only = ClientId.safeParse(input.client);
  const clients = only.success ? [only.data] : await tenants(deps);
  const keyId = auditSigningKeyId(deps.config);
  let linked = 0;
  let checkpoints = 0;
  for (const client of clients) {
    linked += await linkTrails(deps, client);
    for (const trail of ACTIVITY_TRAILS) if (await writeCheckpoint(deps, trail, client, keyId)) checkpoints += 1;
  }
  return { clients: clients.length, linked, checkpoints };
}

const StreamRecord = z.looseObject({
  eventSource: z.literal('aws:dynamodb'),
  eventName: z.string(),
  dynamodb: z.looseObject({ NewImage: z.record(z.string(), z.unknown()).optional() }).optional(),
});
const StreamEvent = z.object({ Records: z.array(z.unknown()).min(1) });

const TRAIL_OF_ENTITY: Record<string, ActivityTrail> = { UserActivity: 'user', DeviceActivity: 'device' };

/**
 * The tenants a DynamoDB Streams batch names new activity records of, or undefined when the event is not a stream
 * batch. Reads only `entity` and `client` of each new image (the trigger's filter already keeps activity inserts).
 */
export function auditStreamTargets(event: unknown): string[] | undefined {
  const batch = StreamEvent.safeParse(event);
  if (!batch.success) return undefined;
  const clients = new Set<string>();
  let streamRecords = 0;
  for (const raw of batch.data.Records) {
    const record = StreamRecord.safeParse(raw);
    if (!record.success) continue;
    streamRecords += 1;
    const image = record.data.dynamodb?.NewImage as Record<string, { S?: unknown }> | undefined;
    const entity = image?.entity?.S;
    const client = ClientId.safeParse(image?.client?.S);
    if (typeof entity === 'string' && entity in TRAIL_OF_ENTITY && client.success) clients.add(client.data);
  }
  return streamRecords === 0 ? undefined : [...clients];
}
