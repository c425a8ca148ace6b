import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';

/**
 * Retention and legal holds (lambdas/account-data). The retention policy is one account setting (`RETENTION`, in the
 * account partition beside the defaults and the migration switches), so processing reads it with one GetItem. Legal
 * holds share one partition per tenant, sort key `HOLD#<target_type>#<target>`: a target has at most one hold item
 * (placed, released, placed again), the tenant's holds are one Query, and one type's holds a prefix of it. A tenant
 * has a handful of holds at a time (they name people in litigation), so one partition is no hot spot.
 */
export const retentionKeys = {
  retentionPolicy: {
    key: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}ACCOUNT`, sk: 'SETTING#RETENTION' }),
  },
  /**
   * How far the retention job has indexed the audit trails (whose records get their due markers from the job, not
   * from the call that writes them): one account setting, `RETENTION_INDEXED`, with the last activity time per trail.
   */
  retentionIndexed: {
    key: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}ACCOUNT`, sk: 'SETTING#RETENTION_INDEXED' }),
  },
  legalHold: {
    item: (client: string, targetType: string, target: string): ItemKeys => ({
      ...retentionKeys.legalHold.key(client, targetType, target),
      entity: ENTITY.legalHold,
    }),
    key: (client: string, targetType: string, target: string): ItemKey => ({
      pk: `${tenantPrefix(client)}LEGAL_HOLDS`,
      sk: `HOLD#${part(targetType)}#${part(target)}`,
    }),
    /** The tenant's holds, or those of one target type. */
    list: (client: string, targetType?: string): ListKey =>
      targetType === undefined
        ? list(undefined, `${tenantPrefix(client)}LEGAL_HOLDS`)
        : { partition: `${tenantPrefix(client)}LEGAL_HOLDS`, sort: { beginsWith: `HOLD#${part(targetType)}#` } },
  },
  /**
   * The retention due index (lambdas/account-data/retention/due-index.ts has the why). One small marker per retained
   * record and timestamp kind, beside the record: pk `<record pk>#RETAIN` (a partition of markers only, so no Query of
   * the record's own partition meets one), sk `<kind>#<record sk>`. On gsi1 it sits in the partition of its tenant,
   * record type, payload type (`-` for other types), kind and stage (`LIVE`, `DELETED`, `PURGE`), sorted by the time
   * the policy counts from, so "due" is one key range up to now minus the policy's days, whatever the policy is.
   */
  retentionDue: {
    item: (client: string, marker: DueMarkerPlace): ItemKeys => ({
      ...retentionKeys.retentionDue.key(client, marker.record, marker.kind),
      entity: ENTITY.retentionDue,
      gsi1pk: retentionKeys.retentionDue.partition(client, marker),
      gsi1sk: timeSort(marker.baseTime, `${marker.record.pk}#${marker.record.sk}`),
    }),
    key: (client: string, record: ItemKey, kind: string): ItemKey => {
      if (!record.pk.startsWith(tenantPrefix(client))) throw new Error('A due marker must sit in its record\'s tenant');
      return { pk: `${record.pk}#RETAIN`, sk: `${part(kind)}#${record.sk}` };
    },
    /** The gsi1 partition of one record type (and payload type), timestamp kind and stage. */
    partition: (client: string, marker: Pick<DueMarkerPlace, 'recordType' | 'payloadType' | 'kind' | 'stage'>): string =>
      `${tenantPrefix(client)}RETAIN#${part(marker.recordType)}#${part(marker.payloadType ?? '-')}#${part(marker.kind)}#${marker.stage}`,
    /** Markers of one partition, oldest base time first; narrow with a sort range up to the cutoff. */
    list: (client: string, marker: Pick<DueMarkerPlace, 'recordType' | 'payloadType' | 'kind' | 'stage'>): ListKey =>
      list('gsi1', retentionKeys.retentionDue.partition(client, marker)),
    /**
     * Where the markers of records a legal hold keeps are parked (stage `HELD`), out of every due range: one gsi1
     * partition per tenant and hold target, whatever the record type, so releasing the hold reads exactly what it
     * parked (lambdas/account-data/legal-holds/parked-markers.ts).
     */
    heldPartition: (client: string, hold: { targetType: string; target: string }): string =>
      `${tenantPrefix(client)}RETAIN#HELD#${part(hold.targetType)}#${part(hold.target)}`,
    listHeld: (client: string, hold: { targetType: string; target: string }): ListKey => list('gsi1', retentionKeys.retentionDue.heldPartition(client, hold)),
  },
  /**
   * Disposal records (what the retention job deleted or destroyed): one partition per tenant, sort key
   * `<disposed_at>#<disposal_id>`, so the audit screen reads newest first and a time range is a key condition.
   */
  disposal: {
    item: (client: string, disposedAt: Date | string, disposalId: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DISPOSALS`,
      sk: timeSort(disposedAt, disposalId),
      entity: ENTITY.disposal,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}DISPOSALS`),
  },
};

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
