import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';
import { BY_PROCESSED_AT } from '../table-definition.ts';

/** Payloads and what lives in or beside their partition: audit, sweep markers, comments, alerts. */
export const payloadsKeys = {
  payload: {
    /** Comments and audit records live in the payload's partition (sort keys `COMMENT#…`, `AUDIT#…`). */
    item: (
      client: string,
      payload: { payloadReference: string; payloadTime: Date | string; deviceReference: string; deviceUserReference?: string },
    ): ItemKeys => ({
      pk: `${tenantPrefix(client)}PAYLOAD#${part(payload.payloadReference)}`,
      sk: 'PAYLOAD',
      entity: ENTITY.payload,
      gsi1pk: `${tenantPrefix(client)}PAYLOADS`,
      gsi1sk: timeSort(payload.payloadTime, payload.payloadReference),
      gsi2pk: `${tenantPrefix(client)}DEVICE#${part(payload.deviceReference)}#PAYLOADS`,
      gsi2sk: timeSort(payload.payloadTime, payload.payloadReference),
      ...(payload.deviceUserReference === undefined
        ? {}
        : {
            gsi3pk: `${tenantPrefix(client)}DUSER#${part(payload.deviceUserReference)}#PAYLOADS`,
            gsi3sk: timeSort(payload.payloadTime, payload.payloadReference),
          }),
    }),
    /** The primary key alone (get, update), without the payload time the list keys need. */
    key: (client: string, payloadReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`,
      sk: 'PAYLOAD',
    }),
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}PAYLOADS`),
    listByDevice: (client: string, deviceReference: string): ListKey =>
      list('gsi2', `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#PAYLOADS`),
    listByDeviceUser: (client: string, deviceUserReference: string): ListKey =>
      list('gsi3', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#PAYLOADS`),
    /**
     * The byProcessedAt keys of a Processed payload: the tenant's partition of Processed recordings, by processing time.
     * Written in the same write that makes a payload Processed (processing, the legacy import, a restore) and removed in
     * the write that ends it (deletion; a destroyed remnant keeps neither), so the index holds exactly the payloads a
     * transfer may carry and its window is one key range (lambdas/transfers/job/selection.ts).
     */
    processedKeys: (client: string, payloadReference: string, processedAt: string): Pick<ItemKeys, 'by_processed_at_pk' | 'by_processed_at_sk'> => ({
      [BY_PROCESSED_AT.partitionKey]: `${tenantPrefix(client)}PAYLOADS#PROCESSED`,
      [BY_PROCESSED_AT.sortKey]: timeSort(processedAt, payloadReference),
    }),
    /** The attributes a payload that stops being Processed REMOVEs. */
    processedKeyAttributes: [BY_PROCESSED_AT.partitionKey, BY_PROCESSED_AT.sortKey] as string[],
    /** The tenant's Processed payloads by processing time, oldest first. */
    listProcessed: (client: string): ListKey => list(BY_PROCESSED_AT.name, `${tenantPrefix(client)}PAYLOADS#PROCESSED`),
    /**
     * One play, download, transfer or receipt of the payload (the payload's audit), in the payload's partition under
     * `AUDIT#<time>#<id>`, so one Query with `auditPrefix` reads the audit in time order.
     */
    audit: (client: string, payloadReference: string, time: Date | string, id: string, receiptBy?: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`,
      sk: `AUDIT#${timeSort(time, id)}`,
      entity: ENTITY.payloadAudit,
      // A receipt is also listed under the person who confirmed it: what a legal hold on that portal user covers.
      ...(receiptBy === undefined ? {} : { gsi1pk: `${tenantPrefix(client)}PERSON#${part(receiptBy)}#RECEIPTS`, gsi1sk: timeSort(time, id) }),
    }),
    auditPrefix: 'AUDIT#',
    /** The receipts one person confirmed (as the audit names them: e-mail, else reference), by time (gsi1). */
    receiptsBy: (client: string, person: string): ListKey => list('gsi1', `${tenantPrefix(client)}PERSON#${part(person)}#RECEIPTS`),
    /**
     * The sweep's marker of a payload that has not settled yet (lambdas/payloads/processing/sweep.ts): in the payload's
     * partition under `SWEEP`, and on gsi1 `C#<c>#PAYLOADS#SWEEP` by the time it is next due, so the job reads only
     * the markers due (a key range up to now). The payload item cannot carry it: its three index pairs are its lists.
     */
    sweep: (client: string, payloadReference: string, dueAt: Date | string): ItemKeys => ({
      ...payloadsKeys.payload.sweepKey(client, payloadReference),
      entity: ENTITY.payloadSweep,
      gsi1pk: `${tenantPrefix(client)}PAYLOADS#SWEEP`,
      gsi1sk: timeSort(dueAt, payloadReference),
    }),
    sweepKey: (client: string, payloadReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`,
      sk: 'SWEEP',
    }),
    /** Sweep markers by due time, soonest first. */
    listSweepDue: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}PAYLOADS#SWEEP`),
  },
  /**
   * Payload comments (lambdas/payloads/comments): in the payload's own partition under `COMMENT#<comment_id>` (a ULID,
   * so a payload's comments read in the order raised), and on gsi1 per tenant by raised time for `GET comments`.
   */
  comment: {
    item: (client: string, payloadReference: string, commentId: string, raisedAt: Date | string, raisedBy?: string): ItemKeys => ({
      ...payloadsKeys.comment.key(client, payloadReference, commentId),
      entity: ENTITY.comment,
      gsi1pk: `${tenantPrefix(client)}COMMENTS`,
      gsi1sk: timeSort(raisedAt, commentId),
      // Also listed under who raised it: what a legal hold on that portal user covers.
      ...(raisedBy === undefined ? {} : { gsi2pk: `${tenantPrefix(client)}PERSON#${part(raisedBy)}#COMMENTS`, gsi2sk: timeSort(raisedAt, commentId) }),
    }),
    /** The comments one person raised (`raised_by`: e-mail, else reference), by raised time (gsi2). */
    listByRaiser: (client: string, raisedBy: string): ListKey => list('gsi2', `${tenantPrefix(client)}PERSON#${part(raisedBy)}#COMMENTS`),
    key: (client: string, payloadReference: string, commentId: string): ItemKey => ({
      pk: `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`,
      sk: `COMMENT#${part(commentId)}`,
    }),
    /** One payload's comments: its partition, narrowed with `sortPrefix`. */
    listByPayload: (client: string, payloadReference: string): ListKey =>
      list(undefined, `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`),
    sortPrefix: 'COMMENT#',
    /** The tenant's comments by raised time. */
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}COMMENTS`),
  },
  /**
   * Alerts (lambdas/alerts). An alert's own partition holds the alert (`ALERT`) and its bounded ring of
   * occurrences (`OCC#<slot>`), so one Query reads an alert whole. Lists: gsi1 by last occurrence, gsi2 by first
   * occurrence (the two date filters), both per tenant and across scopes (scope is a filter of the list); gsi3 is the
   * tenant's expiry queue, present only while a Triggered alert has an expiry. A Scoped key has one pointer item naming
   * its open alert (written in the same transaction as a new alert, with a condition, so racing raises make one alert).
   * Summary counters: one item per tenant and one per user (dismissed), attributes `<scope>_<severity>`.
   */
  alert: {
    item: (
      client: string,
      alertReference: string,
      lastOccurrence: Date | string,
      firstOccurrence: Date | string = lastOccurrence,
    ): ItemKeys => ({
      ...payloadsKeys.alert.key(client, alertReference),
      entity: ENTITY.alert,
      ...payloadsKeys.alert.lastOccurrenceKeys(client, alertReference, lastOccurrence),
      ...payloadsKeys.alert.firstOccurrenceKeys(client, alertReference, firstOccurrence),
    }),
    /** The gsi2 attributes (an occurrence that lost the race to create the alert may move them earlier). */
    firstOccurrenceKeys: (client: string, alertReference: string, firstOccurrence: Date | string) => ({
      gsi2pk: `${tenantPrefix(client)}ALERTS#BY_FIRST`,
      gsi2sk: timeSort(firstOccurrence, alertReference),
    }),
    /** The gsi1 attributes, rewritten with each occurrence. */
    lastOccurrenceKeys: (client: string, alertReference: string, lastOccurrence: Date | string) => ({
      gsi1pk: `${tenantPrefix(client)}ALERTS#BY_LAST`,
      gsi1sk: timeSort(lastOccurrence, alertReference),
    }),
    /** The gsi3 attributes placing a Triggered alert in the tenant's expiry queue (removed when it clears). */
    expiryKeys: (client: string, alertReference: string, expiresAt: Date | string) => ({
      gsi3pk: `${tenantPrefix(client)}ALERTS#EXPIRY`,
      gsi3sk: timeSort(expiresAt, alertReference),
    }),
    key: (client: string, alertReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}ALERT#${part(alertReference)}`,
      sk: 'ALERT',
    }),
    /** The alert's partition: the alert and its occurrences. */
    partition: (client: string, alertReference: string): ListKey => list(undefined, `${tenantPrefix(client)}ALERT#${part(alertReference)}`),
    occurrencePrefix: 'OCC#',
    /** One slot of the ring of occurrences (slot = occurrence number modulo the ring size). */
    occurrence: (client: string, alertReference: string, slot: number): ItemKeys => ({
      pk: `${tenantPrefix(client)}ALERT#${part(alertReference)}`,
      sk: `OCC#${String(slot).padStart(4, '0')}`,
      entity: ENTITY.alertOccurrence,
    }),
    /** The pointer of a Scoped key to its open (or last) alert. */
    scopedKey: (client: string, scope: string, alertKey: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ALERT_KEY#${part(scope)}#${part(alertKey)}`,
      sk: 'KEY',
      entity: ENTITY.alertKey,
    }),
    /** Tenant counters of Triggered alerts. */
    tenantCounter: (client: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ALERT_COUNTERS`,
      sk: 'TENANT',
      entity: ENTITY.alertCounter,
    }),
    /** One user's counters of dismissed Triggered alerts. */
    userCounter: (client: string, user: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ALERT_COUNTERS`,
      sk: `USER#${part(user)}`,
      entity: ENTITY.alertCounter,
    }),
    /** By last occurrence (the default date filter). */
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}ALERTS#BY_LAST`),
    listByFirstOccurrence: (client: string): ListKey => list('gsi2', `${tenantPrefix(client)}ALERTS#BY_FIRST`),
    /** Triggered alerts with an expiry, soonest first. */
    expiring: (client: string): ListKey => list('gsi3', `${tenantPrefix(client)}ALERTS#EXPIRY`),
  },
};

/** Object key of a payload's bytes in the raw or processed bucket: tenant first, like every table key. */
export function payloadObjectKey(client: string, payloadReference: string): string {
  tenantPrefix(client);
  return `${client}/payloads/${encodeURIComponent(payloadReference)}`;
}

/**
 * Object key, in the malware-scan quarantine bucket, of the plaintext of one upload of a payload: its object key plus
 * the upload's ETag, so a payload uploaded again is scanned again rather than judged by an older copy's verdict.
 */
export function quarantineObjectKey(objectKey: string, revision: string | undefined): string {
  const cleaned = (revision ?? '').replace(/[^A-Za-z0-9-]/g, '');
  return `${objectKey}/${cleaned || 'unknown'}`;
}

/** The payload object key a quarantine key stands for, or undefined for a key of another shape. */
export function objectKeyOfQuarantineKey(quarantineKey: string): string | undefined {
  const cut = quarantineKey.lastIndexOf('/');
  return cut <= 0 ? undefined : quarantineKey.slice(0, cut);
}
