import * as z from 'zod';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { payloadPartition } from './payload.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Named index: the tenant's sweep markers by the time they are next due. */
export const PAYLOAD_SWEEP_INDEXES = { due: 'gsi1' } as const;

/**
 * The sweep's marker of a payload that has not settled yet (lambdas/payloads/processing/sweep.ts): in the payload's
 * partition under `SWEEP`, and on `due` `C#<c>#PAYLOADS#SWEEP` by the time it is next due, so the job reads only
 * the markers due (a key range up to now). The payload item cannot carry it: its three index pairs are its lists.
 */
export const payloadSweepKeys = {
  sweep: (client: string, payloadReference: string, dueAt: Date | string): ItemKeys => ({
    ...payloadSweepKeys.sweepKey(client, payloadReference),
    entity: ENTITY.payloadSweep,
    ...onIndex[PAYLOAD_SWEEP_INDEXES.due](`${tenantPrefix(client)}PAYLOADS#SWEEP`, timeSort(dueAt, payloadReference)),
  }),
  sweepKey: (client: string, payloadReference: string): ItemKey => ({ pk: payloadPartition(client, payloadReference), sk: 'SWEEP' }),
  /** Sweep markers by due time, soonest first. */
  listSweepDue: (client: string): ListKey => list(PAYLOAD_SWEEP_INDEXES.due, `${tenantPrefix(client)}PAYLOADS#SWEEP`),
};

/**
 * The sweep's marker of a payload that has not settled yet (lambdas/payloads/processing/sweep.ts has the why): in the
 * payload's partition, on its own index partition by the time it is next due.
 */
export const payloadSweepItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string().optional(),
  payload_reference: z.string(),
  /** When the payload (or its unregistered object) was first seen. */
  since: z.string(),
  /** Sweeps that found it still unsettled. */
  attempts: z.number().optional(),
  /** Its stuck alert was raised (once). */
  alerted: z.boolean().optional(),
}));
export type PayloadSweepItem = z.infer<ReturnType<typeof payloadSweepItemSchema>>;

export function readPayloadSweep(item: TableItem): PayloadSweepItem {
  return readItem('PayloadSweep', payloadSweepItemSchema(), item);
}

/** A fresh marker, first seen at `since`, first due at `dueAt`. */
export function payloadSweepToItem(client: string, payloadReference: string, since: Date, dueAt: Date): TableItem {
  const marker: PayloadSweepItem = { client, payload_reference: payloadReference, since: since.toISOString(), attempts: 0 };
  return { ...payloadSweepKeys.sweep(client, payloadReference, dueAt), ...marker };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const payloadSweepModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.payloadSweep,
  title: 'Payload sweep marker, while the payload is unsettled',
  module: 'payload-sweep.ts',
  indexes: PAYLOAD_SWEEP_INDEXES,
  items: [{ example: () => payloadSweepKeys.sweep(EXAMPLE_CLIENT, '<ref>', '<due>') }],
  accessPatterns: [
    {
      name: 'Payloads not settled, due for the sweep',
      serves: 'the `payload-sweep` job (every 15 minutes): sort key between `0` and now',
      builders: ['keys.payload.listSweepDue'],
      example: () => payloadSweepKeys.listSweepDue(EXAMPLE_CLIENT),
    },
  ],
}));
