import * as z from 'zod';
import { RetentionRecordType } from '#shared/constants/account.ts';
import type { ItemKey, TableItem } from '../../ports/table-store.ts';
import { retentionKeys, type DueStage } from '../keys/retention.ts';
import { readItem } from './read-item.ts';

/**
 * A retention due marker (`keys.retentionDue`): one per retained record and timestamp kind, on the gsi1 partition of
 * its tenant, record type, payload type, kind and stage, sorted by `base_time` (the time the policy counts from). It
 * names its record by key, so the job reads the record itself before acting (lambdas/account-data/retention/).
 */
export const RetentionDueItem = z.object({
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
});
export type RetentionDueItem = z.infer<typeof RetentionDueItem>;

export function readRetentionDue(item: TableItem): RetentionDueItem {
  return readItem('RetentionDue', RetentionDueItem, item);
}

export function recordKeyOf(marker: RetentionDueItem): ItemKey {
  return { pk: marker.record_pk, sk: marker.record_sk };
}

/** The marker item in its stage (the index keys follow the stage, so moving a marker is rewriting these). */
export function retentionDueToItem(marker: RetentionDueItem): TableItem {
  return {
    ...retentionKeys.retentionDue.item(marker.client, {
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

/** The attributes that move a marker to another stage (its gsi1 partition and the `stage` attribute). */
export function stageUpdate(marker: RetentionDueItem, stage: DueStage): Record<string, unknown> {
  return {
    stage,
    gsi1pk: retentionKeys.retentionDue.partition(marker.client, {
      recordType: marker.record_type,
      payloadType: marker.payload_type,
      kind: marker.kind,
      stage,
    }),
  };
}
