import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { processPayload } from '../payloads/public.ts';
import { ClientId, PayloadReference } from '#shared/contract/fields.ts';

const Input = z.strictObject({ client: ClientId, payload_reference: PayloadReference });

/**
 * Job `payload-processing`: processes one payload now. The device registration starts it when the payload's object
 * arrived first (the usual order: upload, then register), so processing does not wait for the object event's retry.
 * Idempotent like every processing run: a retry, the event's own retry or the sweep meeting it changes nothing twice.
 */
export async function payloadProcessingJob(dependencies: Dependencies, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const parsed = Input.safeParse(input);
  if (!parsed.success) throw new Error(`payload-processing: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  const outcome = await processPayload(dependencies, parsed.data.client, parsed.data.payload_reference);
  return { client: parsed.data.client, payload_reference: parsed.data.payload_reference, outcome };
}
