import * as z from 'zod';
import { RetentionRecordType } from '#shared/constants/account.ts';
import { onFirstUse } from '../../on-first-use.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { ENTITY, list, onIndex, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { readItem } from './read-item.ts';
import { EXAMPLE_CLIENT, entityModel } from '../entity-model.ts';

/** Where a due marker sits: its record, what kind of time it counts from, that time, and its stage. */
export interface DueMarkerPlace {
  record: ItemKey;
  recordType: string;
  payloadType?: string | undefined;
  kind: string;
  stage: DueStage;
  baseTime: string;
}

/**
 * LIVE: not disposed yet. DELETED: deleted, waiting for destruction. PURGE: destroyed, its objects still to remove.
 * HELD: a legal hold keeps the record (found by a run); parked under that hold until its release puts it back.
 */
export type DueStage = 'LIVE' | 'DELETED' | 'PURGE' | 'HELD';

/** Named index: the markers of one record type, timestamp kind and stage (or one hold's parked markers) by base time. */
export const RETENTION_DUE_INDEXES = { due: 'gsi1' } as const;

/**
 * The retention due index (lambdas/account-data/retention/due-index.ts has the why). One small marker per retained
 * record and timestamp kind, beside the record: pk `<record pk>#RETAIN` (a partition of markers only, so no Query of
 * the record's own partition meets one), sk `<kind>#<record sk>`. On `due` it sits in the partition of its tenant,
 * record type, payload type (`-` for other types), kind and stage (`LIVE`, `DELETED`, `PURGE`), sorted by the time
 * the policy counts from, so "due" is one key range up to now minus the policy's days, whatever the policy is.
 */
export const retentionDueKeys = {
  item: (client: string, marker: DueMarkerPlace): ItemKeys => ({
    ...retentionDueKeys.key(client, marker.record, marker.kind),
    entity: ENTITY.retentionDue,
    ...onIndex[RETENTION_DUE_INDEXES.due](retentionDueKeys.partition(client, marker), timeSort(marker.baseTime, `${marker.record.pk}#${marker.record.sk}`)),
  }),
  key: (client: string, record: ItemKey, kind: string): ItemKey => {
    if (!record.pk.startsWith(tenantPrefix(client))) throw new Error('A due marker must sit in its record\'s tenant');
    return { pk: `${record.pk}#RETAIN`, sk: `${part(kind)}#${record.sk}` };
  },
  /** The due partition of one record type (and payload type), timestamp kind and stage. */
  partition: (client: string, marker: Pick<DueMarkerPlace, 'recordType' | 'payloadType' | 'kind' | 'stage'>): string =>
    `${tenantPrefix(client)}RETAIN#${part(marker.recordType)}#${part(marker.payloadType ?? '-')}#${part(marker.kind)}#${marker.stage}`,
  /** Markers of one partition, oldest base time first; narrow with a sort range up to the cutoff. */
  list: (client: string, marker: Pick<DueMarkerPlace, 'recordType' | 'payloadType' | 'kind' | 'stage'>): ListKey =>
    list(RETENTION_DUE_INDEXES.due, retentionDueKeys.partition(client, marker)),
  /**
   * Where the markers of records a legal hold keeps are parked (stage `HELD`), out of every due range: one partition
   * per tenant and hold target, whatever the record type, so releasing the hold reads exactly what it parked
   * (lambdas/account-data/legal-holds/parked-markers.ts).
   */
  heldPartition: (client: string, hold: { targetType: string; target: string }): string =>
    `${tenantPrefix(client)}RETAIN#HELD#${part(hold.targetType)}#${part(hold.target)}`,
  listHeld: (client: string, hold: { targetType: string; target: string }): ListKey => list(RETENTION_DUE_INDEXES.due, retentionDueKeys.heldPartition(client, hold)),
};

/**
 * A retention due marker (`keys.retentionDue`): one per retained record and timestamp kind, on the gsi1 partition of
 * its tenant, record type, payload type, kind and stage, sorted by `base_time` (the time the policy counts from). It
 * names its record by key, so the job reads the record itself before acting (lambdas/account-data/retention/).
 */
export const retentionDueItemSchema = /* @__PURE__ */ onFirstUse(() => z.object({
  client: z.string(),
  record_type: RetentionRecordType,
  payload_type: z.string().optional(),
  /** `payload_time`, `processed_at`, `transferred_at`, `receipt_confirmed_at` for PayloadData; `at` for the others. */
  kind: z.string(),
  stage: z.enum(['LIVE', 'DELETED', 'PURGE', 'HELD']),
  base_time: z.string(),
  record_pk: z.string(),
  record_sk: z.string(),
  /** The record's own reference (payload reference, fix or log id, alert reference, activity log id). */
  reference: z.string(),
}));
export type RetentionDueItem = z.infer<ReturnType<typeof retentionDueItemSchema>>;

export function readRetentionDue(item: TableItem): RetentionDueItem {
  return readItem('RetentionDue', retentionDueItemSchema(), item);
}

export function recordKeyOf(marker: RetentionDueItem): ItemKey {
  return { pk: marker.record_pk, sk: marker.record_sk };
}

/** The marker item in its stage (the index keys follow the stage, so moving a marker is rewriting these). */
export function retentionDueToItem(marker: RetentionDueItem): TableItem {
  return {
    ...retentionDueKeys.item(marker.client, {
      record: recordKeyOf(marker),
      recordType: marker.record_type,
      payloadType: marker.payload_type,
      kind: marker.kind,
      stage: marker.stage,
      baseTime: marker.base_time,
    }),
    ...marker,
  };
}

/** What docs/data-model.md says of this entity, generated from the builders above (entity-model.ts). */
export const retentionDueModel = /* @__PURE__ */ entityModel(() => ({
  entity: ENTITY.retentionDue,
  title: 'Retention due marker, one per retained record and timestamp kind',
  module: 'retention-due.ts',
  indexes: RETENTION_DUE_INDEXES,
  items: [
    {
      example: () =>
        retentionDueKeys.item(EXAMPLE_CLIENT, {
          record: { pk: `${tenantPrefix(EXAMPLE_CLIENT)}<record>`, sk: '<record sk>' },
          recordType: '<record type>',
          payloadType: '<payload type or ->',
          kind: '<kind>',
          stage: 'LIVE',
          baseTime: '<base time>',
        }),
    },
  ],
  accessPatterns: [
    {
      name: 'Records due for deletion or destruction under a rule',
      serves: 'the `retention` job (daily); `POST account/retention/preview`: sort key between `0` and `<now − days>~`; stage `PURGE`, kind `purge`: what is still to remove',
      builders: ['keys.retentionDue.list'],
      example: () => retentionDueKeys.list(EXAMPLE_CLIENT, { recordType: '<record type>', payloadType: '<payload type>', kind: '<kind>', stage: 'LIVE' }),
    },
    {
      name: 'Records parked under a hold',
      serves: 'the retention preview (kept: legal hold); a hold\'s release puts them back',
      builders: ['keys.retentionDue.listHeld'],
      example: () => retentionDueKeys.listHeld(EXAMPLE_CLIENT, { targetType: '<target type>', target: '<target>' }),
    },
  ],
}));
