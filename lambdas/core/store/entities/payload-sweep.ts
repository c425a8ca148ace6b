import * as z from 'zod';
import type { TableItem } from '../../ports/table-store.ts';
import { keys } from '../keys.ts';
import { readItem } from './read-item.ts';

/**
 * The sweep's marker of a payload that has not settled yet (lambdas/payloads/processing/sweep.ts has the why): in the
 * payload's partition, on its own index partition by the time it is next due.
 */
export const PayloadSweepItem = z.object({
  client: z.string().optional(),
  payload_reference: z.string(),
  /** When the payload (or its unregistered object) was first seen. */
  since: z.string(),
  /** Sweeps that found it still unsettled. */
  attempts: z.number().optional(),
  /** Its stuck alert was raised (once). */
  alerted: z.boolean().optional(),
});
export type PayloadSweepItem = z.infer<typeof PayloadSweepItem>;

export function readPayloadSweep(item: TableItem): PayloadSweepItem {
  return readItem('PayloadSweep', PayloadSweepItem, item);
}

/** A fresh marker, first seen at `since`, first due at `dueAt`. */
export function payloadSweepToItem(client: string, payloadReference: string, since: Date, dueAt: Date): TableItem {
  const marker: PayloadSweepItem = { client, payload_reference: payloadReference, since: since.toISOString(), attempts: 0 };
  return { ...keys.payload.sweep(client, payloadReference, dueAt), ...marker };
}
