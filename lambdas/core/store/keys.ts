import { ClientId } from '#shared/contract/fields.ts';
import type { ItemKey, QuerySpec } from '../ports/table-store.ts';
import type { IndexName } from './table-definition.ts';

/**
 * Key builders for every entity in the one table: the only place key strings are spelled (docs/data-model.md has
 * the access-pattern table). Every key value starts with `C#<client>#`, so a Query built here cannot cross a tenant.
 */

/** Entity tags (TABLE_KEYS.entityAttribute). */
export const ENTITY = {
  account: 'Account',
  portalUser: 'PortalUser',
  termsAcceptance: 'TermsAcceptance',
  role: 'Role',
  group: 'Group',
  tagDefinition: 'TagDefinition',
  device: 'Device',
  deviceUser: 'DeviceUser',
  payload: 'Payload',
  alert: 'Alert',
  alertKey: 'AlertKey',
  alertOccurrence: 'AlertOccurrence',
  alertCounter: 'AlertCounter',
  userActivity: 'UserActivity',
  deviceActivity: 'DeviceActivity',
  clientApp: 'ClientApp',
  supportAccess: 'SupportAccess',
  auditHead: 'AuditHead',
  deviceKeys: 'DeviceKeys',
  phoneNumber: 'PhoneNumber',
  licences: 'Licences',
  payloadMetrics: 'PayloadMetrics',
  metricTotals: 'MetricTotals',
  carrierSeen: 'CarrierSeen',
  dashboardCounters: 'DashboardCounters',
  deviceHistory: 'DeviceHistory',
  deviceCommand: 'DeviceCommand',
  deviceLastSeen: 'DeviceLastSeen',
  deviceLog: 'DeviceLog',
  gps: 'Gps',
  telemetry: 'Telemetry',
  comment: 'Comment',
  payloadAudit: 'PayloadAudit',
  payloadSweep: 'PayloadSweep',
} as const;
export type EntityName = (typeof ENTITY)[keyof typeof ENTITY];

/** The key attributes an item carries: primary key, entity tag and whichever index keys place it in a list. */
export interface ItemKeys extends ItemKey {
  entity: EntityName;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk?: string;
  gsi3sk?: string;
}

/** A list access pattern: which partition of which index (or the table) to Query, optionally narrowed by sort key. */
export type ListKey = Pick<QuerySpec, 'index' | 'partition'> & { sort?: { beginsWith: string } };

/** The tenant prefix. Refuses anything but a client slug: a key must never be built from unchecked input. */
export function tenantPrefix(client: string): string {
  if (!ClientId.safeParse(client).success) throw new Error(`Not a client slug: ${JSON.stringify(client.slice(0, 80))}`);
  return `C#${client}#`;
}

/**
 * One key component. `#` separates components and `%` escapes, so both are percent-encoded: a group named `a#b`
 * can never read as group `a` followed by another component, and prefix queries stay exact.
 */
export function part(value: string): string {
  return value.replace(/%/g, '%25').replace(/#/g, '%23');
}

/** Sort key for time-ordered lists: ISO-8601 UTC (sorts as text) then the reference that makes it unique. */
export function timeSort(time: Date | string, reference: string): string {
  const iso = typeof time === 'string' ? time : time.toISOString();
  return `${iso}#${part(reference)}`;
}

const list = (index: IndexName | undefined, partition: string): ListKey => (index ? { index, partition } : { partition });

/** A table list whose items' sort keys are `<prefix><reference>`, narrowed to references starting with `startsWith`. */
const referenceList = (partition: string, prefix: string, startsWith: string | undefined): ListKey =>
  startsWith === undefined ? list(undefined, partition) : { partition, sort: { beginsWith: `${prefix}${part(startsWith)}` } };

export const keys = {
  /** The tenant's account item (the client record, defaults, migration config live beside it by sort key). */
  account: {
    item: (client: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ACCOUNT`,
      sk: 'ACCOUNT',
      entity: ENTITY.account,
      // Staff list every client: the list lives in the provider's own tenant, so it too starts with a client.
      gsi1pk: `${tenantPrefix('admin')}CLIENTS`,
      gsi1sk: part(client),
    }),
    /** A named account setting (`DEFAULTS`, `MIGRATION`, `RETENTION`, …) in the account partition. */
    setting: (client: string, name: string): ItemKey => ({ pk: `${tenantPrefix(client)}ACCOUNT`, sk: `SETTING#${part(name)}` }),
    /** Internal console: all clients. */
    listAll: (): ListKey => list('gsi1', `${tenantPrefix('admin')}CLIENTS`),
  },
  portalUser: {
    item: (client: string, userReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PORTAL_USERS`,
      sk: `USER#${part(userReference)}`,
      entity: ENTITY.portalUser,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}PORTAL_USERS`),
  },
  /**
   * One user's acceptance of one version of the terms of use (`valid_from`), in the tenant the user acts in. Its own
   * partition, not the portal users': lists of portal users must not read acceptances. The acting user is a tenant
   * user (`USER#<sub>`) or, in support mode, a staff member (`STAFF#<sub>`): staff subjects come from another identity
   * pool, so the prefix keeps them from ever meeting a tenant user's. The user's acceptances of every version share
   * the prefix `<USER|STAFF>#<sub>#TERMS#`.
   */
  termsAcceptance: {
    item: (client: string, user: { reference: string; staff: boolean }, validFrom: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TERMS_ACCEPTANCES`,
      sk: `${user.staff ? 'STAFF' : 'USER'}#${part(user.reference)}#TERMS#${part(validFrom)}`,
      entity: ENTITY.termsAcceptance,
    }),
  },
  role: {
    item: (client: string, roleReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ROLES`,
      sk: `ROLE#${part(roleReference)}`,
      entity: ENTITY.role,
    }),
    /** The tenant's roles, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}ROLES`, 'ROLE#', startsWith),
  },
  group: {
    item: (client: string, groupReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}GROUPS`,
      sk: `GROUP#${part(groupReference)}`,
      entity: ENTITY.group,
    }),
    /** The tenant's groups, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}GROUPS`, 'GROUP#', startsWith),
  },
  tagDefinition: {
    item: (client: string, tagKey: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TAGS`,
      sk: `TAG#${part(tagKey)}`,
      entity: ENTITY.tagDefinition,
    }),
    /** The tenant's tag definitions, or those whose reference starts with `startsWith`. */
    list: (client: string, startsWith?: string): ListKey => referenceList(`${tenantPrefix(client)}TAGS`, 'TAG#', startsWith),
  },
  device: {
    /** A device's own partition also holds its history, commands and telemetry (by sort key prefix). */
    item: (client: string, deviceReference: string, deviceUserReference?: string, group?: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: 'DEVICE',
      entity: ENTITY.device,
      gsi1pk: `${tenantPrefix(client)}DEVICES`,
      gsi1sk: part(deviceReference),
      ...(deviceUserReference === undefined
        ? {}
        : { gsi2pk: `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#DEVICES`, gsi2sk: part(deviceReference) }),
      ...(group === undefined
        ? {}
        : { gsi3pk: `${tenantPrefix(client)}GROUP#${part(group)}#DEVICES`, gsi3sk: part(deviceReference) }),
    }),
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}DEVICES`),
    listByDeviceUser: (client: string, deviceUserReference: string): ListKey =>
      list('gsi2', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#DEVICES`),
    listByGroup: (client: string, group: string): ListKey => list('gsi3', `${tenantPrefix(client)}GROUP#${part(group)}#DEVICES`),
    /** Primary key alone (get, update) when the list keys are not needed. */
    key: (client: string, deviceReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: 'DEVICE',
    }),
    /** Sort-key prefix of the history records in the device's partition. */
    historyPrefix: 'HISTORY#',
    /**
     * One holding period of the device (who held it, in which group, from when). Sort key `HISTORY#<from ISO>#<id>`:
     * a Query on the prefix lists the periods in time order, and a `from` range is a key condition.
     */
    history: (client: string, deviceReference: string, from: Date | string, id: string): ItemKey => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: `HISTORY#${timeSort(from, id)}`,
    }),
    /** The device's partition (item, history, and what other parts keep there by sort-key prefix). */
    partition: (client: string, deviceReference: string): ListKey => list(undefined, `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`),
    /**
     * The tenant's dashboard counters (devices by state, device users by state, app and OS versions): one item,
     * changed only by atomic ADD in the transaction of the write that moves a device or device user
     * (lambdas/core/store/dashboard-counters.ts), so the dashboard is one GetItem at any fleet size.
     */
    dashboardCounters: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}DASHBOARD`, sk: 'COUNTERS' }),
    /**
     * The device's place in the tenant's last-seen index, for the inactivity job (lambdas/core/devices/deactivation.ts).
     * Decision: a small item of its own in the device's partition (`LAST_SEEN`), not index attributes on the device:
     * the device item already uses all three indexes (all, by device user, by group). It exists only while the device
     * is active: device authentication writes it with last_seen, every deactivation deletes it, in the same
     * transaction as the device, so the index holds exactly the active devices, oldest seen first.
     */
    lastSeen: (client: string, deviceReference: string, lastSeen: Date | string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: 'LAST_SEEN',
      entity: ENTITY.deviceLastSeen,
      gsi1pk: `${tenantPrefix(client)}DEVICES#BY_LAST_SEEN`,
      gsi1sk: timeSort(lastSeen, deviceReference),
    }),
    lastSeenKey: (client: string, deviceReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: 'LAST_SEEN',
    }),
    /** Active devices by last_seen, oldest first (a range up to a threshold is a key condition). */
    listByLastSeen: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}DEVICES#BY_LAST_SEEN`),
  },
  deviceUser: {
    item: (client: string, deviceUserReference: string, group?: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}`,
      sk: 'DEVICE_USER',
      entity: ENTITY.deviceUser,
      gsi1pk: `${tenantPrefix(client)}DEVICE_USERS`,
      gsi1sk: part(deviceUserReference),
      ...(group === undefined
        ? {}
        : { gsi3pk: `${tenantPrefix(client)}GROUP#${part(group)}#DEVICE_USERS`, gsi3sk: part(deviceUserReference) }),
    }),
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}DEVICE_USERS`),
    listByGroup: (client: string, group: string): ListKey =>
      list('gsi3', `${tenantPrefix(client)}GROUP#${part(group)}#DEVICE_USERS`),
    /** Primary key alone (get, update) when the list keys are not needed. */
    key: (client: string, deviceUserReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}`,
      sk: 'DEVICE_USER',
    }),
  },
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
     * One play, download, transfer or receipt of the payload (the payload's audit), in the payload's partition under
     * `AUDIT#<time>#<id>`, so one Query with `auditPrefix` reads the audit in time order.
     */
    audit: (client: string, payloadReference: string, time: Date | string, id: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PAYLOAD#${part(payloadReference)}`,
      sk: `AUDIT#${timeSort(time, id)}`,
      entity: ENTITY.payloadAudit,
    }),
    auditPrefix: 'AUDIT#',
    /**
     * The sweep's marker of a payload that has not settled yet (lambdas/core/payloads/sweep.ts): in the payload's
     * partition under `SWEEP`, and on gsi1 `C#<c>#PAYLOADS#SWEEP` by the time it is next due, so the job reads only
     * the markers due (a key range up to now). The payload item cannot carry it: its three index pairs are its lists.
     */
    sweep: (client: string, payloadReference: string, dueAt: Date | string): ItemKeys => ({
      ...keys.payload.sweepKey(client, payloadReference),
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
    item: (client: string, payloadReference: string, commentId: string, raisedAt: Date | string): ItemKeys => ({
      ...keys.comment.key(client, payloadReference, commentId),
      entity: ENTITY.comment,
      gsi1pk: `${tenantPrefix(client)}COMMENTS`,
      gsi1sk: timeSort(raisedAt, commentId),
    }),
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
   * Alerts (lambdas/core/alerts). An alert's own partition holds the alert (`ALERT`) and its bounded ring of
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
      ...keys.alert.key(client, alertReference),
      entity: ENTITY.alert,
      ...keys.alert.lastOccurrenceKeys(client, alertReference, lastOccurrence),
      ...keys.alert.firstOccurrenceKeys(client, alertReference, firstOccurrence),
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
  clientApp: {
    item: (client: string, appReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}APPS`,
      sk: `APP#${part(appReference)}`,
      entity: ENTITY.clientApp,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}APPS`),
  },
  supportAccess: {
    /**
     * A support-access request lives in the tenant it is for. Staff list requests by state across tenants, so the
     * item also sits in a per-state partition of the provider's own tenant (gsi1); a state change rewrites that key.
     */
    item: (client: string, requestReference: string, approvalState: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}SUPPORT`,
      sk: `REQ#${part(requestReference)}`,
      entity: ENTITY.supportAccess,
      gsi1pk: `${tenantPrefix('admin')}SUPPORT#${part(approvalState)}`,
      gsi1sk: `${part(client)}#${part(requestReference)}`,
    }),
    key: (client: string, requestReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}SUPPORT`,
      sk: `REQ#${part(requestReference)}`,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}SUPPORT`),
    listByState: (approvalState: string): ListKey => list('gsi1', `${tenantPrefix('admin')}SUPPORT#${part(approvalState)}`),
  },
  /**
   * The tenant's user-activity log, hash-chained (DESIGN.md §8). Decision: a record's table sort key is its chain
   * sequence (`SEQ#<12 digits>`), so one Query on the partition streams the chain in chain order (what verification
   * needs, in constant memory, and where a gap shows as a missing number); the time-ordered list, with time ranges
   * as a key condition, is on gsi1 (`<activity_time ISO>#SEQ#<12 digits>`). Activity time cannot be the table sort
   * key: concurrent calls are chained in another order than they started. The chain head (last sequence and hash)
   * is one item of the same partition (`HEAD`), rewritten in the same transaction as each append.
   */
  userActivity: {
    /** Sort-key prefix of the records in chain order (the head sorts apart, as `HEAD`). */
    sequencePrefix: 'SEQ#',
    /** `SEQ#` and the chain sequence (1 or more) zero-padded to 12 digits, so text order is number order. */
    sequenceSort: (sequence: number): string => {
      if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > 999_999_999_999) {
        throw new Error(`Not a chain sequence: ${String(sequence).slice(0, 40)}`);
      }
      return `SEQ#${String(sequence).padStart(12, '0')}`;
    },
    item: (client: string, activityTime: Date | string, sequence: number): ItemKeys => ({
      pk: `${tenantPrefix(client)}USER_ACTIVITY`,
      sk: keys.userActivity.sequenceSort(sequence),
      entity: ENTITY.userActivity,
      gsi1pk: `${tenantPrefix(client)}USER_ACTIVITY#BY_TIME`,
      gsi1sk: timeSort(activityTime, keys.userActivity.sequenceSort(sequence)),
    }),
    /** The chain head: `sequence` and `hash` of the last record appended. */
    head: (client: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}USER_ACTIVITY`,
      sk: 'HEAD',
      entity: ENTITY.auditHead,
    }),
    /** The records in chain order (table; narrow with `sort: { beginsWith: sequencePrefix }` to leave out the head). */
    chain: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}USER_ACTIVITY`),
    /** The records newest or oldest first by activity time (gsi1; a time range is a key condition on the ISO prefix). */
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}USER_ACTIVITY#BY_TIME`),
  },
  /**
   * The tenant's device keys (docs/device-protocol.md): one `CURRENT` item with the enrolment key and the device KEK,
   * both stored only wrapped under the tenant key; and one `KEK#<key_id>` item per KEK, so a payload's `key_id`
   * finds its KEK after a rotation.
   */
  deviceKeys: {
    current: (client: string): ItemKeys => ({ pk: `${tenantPrefix(client)}DEVICE_KEYS`, sk: 'CURRENT', entity: ENTITY.deviceKeys }),
    kek: (client: string, keyId: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE_KEYS`,
      sk: `KEK#${part(keyId)}`,
      entity: ENTITY.deviceKeys,
    }),
  },
  /**
   * A client's licences (lambdas/core/licences): ONE item holding the limits staff set (`limit_<service>`) and the use
   * counters (`used_<service>`, active device users with the service), so a device-user write can ADD to the use with
   * a condition on the limit of the same item, in its own transaction.
   */
  licence: {
    item: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}LICENCES`, sk: 'LICENCES' }),
  },
  /**
   * Payload metrics (lambdas/core/metrics): one partition per tenant and scope, sort key `<period>#<device>`, so a
   * date range is a key condition on the period prefix. Periods sort as text (`2024-05-01`, `2024-W18`, `2024-05`,
   * `2024`, `all`). The tenant's running totals are one item apart.
   */
  metrics: {
    item: (client: string, scope: string, period: string, deviceReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}METRICS#${part(scope)}`,
      sk: `${part(period)}#${part(deviceReference)}`,
    }),
    list: (client: string, scope: string): ListKey => list(undefined, `${tenantPrefix(client)}METRICS#${part(scope)}`),
    totals: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}METRICS_TOTALS`, sk: 'TOTALS' }),
  },
  /**
   * Carriers seen in device carrier metadata, across clients (internal `GET /countries`): one item per (country,
   * carrier) in the provider's own tenant, sort key `<country code, 2 digits>#<carrier code>`, so one Query lists
   * them grouped by country.
   */
  carrier: {
    item: (countryCode: number, carrierCode: string): ItemKey => {
      if (!Number.isSafeInteger(countryCode) || countryCode < 1 || countryCode > 99) {
        throw new Error(`Not a country code: ${String(countryCode).slice(0, 20)}`);
      }
      return { pk: `${tenantPrefix('admin')}CARRIERS`, sk: `${String(countryCode).padStart(2, '0')}#${part(carrierCode)}` };
    },
    list: (): ListKey => list(undefined, `${tenantPrefix('admin')}CARRIERS`),
  },
  /** Which device user a phone number belongs to (device authentication resolves the user by number). */
  phoneNumber: {
    item: (client: string, phoneNumber: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PHONE#${part(phoneNumber)}`,
      sk: 'PHONE',
      entity: ENTITY.phoneNumber,
    }),
  },
  /**
   * Device commands (lambdas/core/commands). A command lives in its device's partition (`COMMAND#<ulid>`). gsi1 lists
   * the tenant's commands by sent_at, gsi2 one device's by sent_at (time ranges are key conditions on both); gsi3 is
   * the device's pending queue the poll reads, present only while the command is Sent or Acknowledged.
   */
  command: {
    prefix: 'COMMAND#',
    key: (client: string, deviceReference: string, commandReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: `COMMAND#${part(commandReference)}`,
    }),
    item: (client: string, deviceReference: string, commandReference: string, sentAt: Date | string): ItemKeys => ({
      ...keys.command.key(client, deviceReference, commandReference),
      entity: ENTITY.deviceCommand,
      gsi1pk: `${tenantPrefix(client)}COMMANDS`,
      gsi1sk: timeSort(sentAt, commandReference),
      gsi2pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#COMMANDS`,
      gsi2sk: timeSort(sentAt, commandReference),
    }),
    /** The gsi3 attributes of a pending command (removed when it reaches Completed or Failed). */
    pendingKeys: (client: string, deviceReference: string, commandReference: string, sentAt: Date | string) => ({
      gsi3pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#COMMANDS#PENDING`,
      gsi3sk: timeSort(sentAt, commandReference),
    }),
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}COMMANDS`),
    listByDevice: (client: string, deviceReference: string): ListKey =>
      list('gsi2', `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#COMMANDS`),
    pending: (client: string, deviceReference: string): ListKey =>
      list('gsi3', `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#COMMANDS#PENDING`),
  },
  deviceActivity: {
    item: (client: string, activity: { activityTime: Date | string; logId: string; deviceReference: string }): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE_ACTIVITY`,
      sk: timeSort(activity.activityTime, activity.logId),
      entity: ENTITY.deviceActivity,
      gsi1pk: `${tenantPrefix(client)}DEVICE#${part(activity.deviceReference)}#ACTIVITY`,
      gsi1sk: timeSort(activity.activityTime, activity.logId),
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}DEVICE_ACTIVITY`),
    listByDevice: (client: string, deviceReference: string): ListKey =>
      list('gsi1', `${tenantPrefix(client)}DEVICE#${part(deviceReference)}#ACTIVITY`),
  },
  /**
   * Device logs (lambdas/core/device-data). One item per log line, time-ordered by its `log_datetime` (UTC) in four
   * lists, each one Query with the time range as a key condition: per device (the device's partition, sort-key
   * prefix `LOG#`), per tenant (gsi1), per device user (gsi2) and per group (gsi3), the last two as the device was
   * held when the line arrived.
   */
  deviceLog: {
    item: (client: string, entry: TimedDeviceData): ItemKeys =>
      timedDeviceDataKeys(client, entry, 'LOG', 'LOGS', ENTITY.deviceLog),
    byDevice: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'LOG#'),
    byTenant: (client: string): TimedList => ({ ...list('gsi1', `${tenantPrefix(client)}DEVICE_LOGS`), sortPrefix: '' }),
    byDeviceUser: (client: string, deviceUserReference: string): TimedList => ({
      ...list('gsi2', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#LOGS`),
      sortPrefix: '',
    }),
    byGroup: (client: string, group: string): TimedList => ({ ...list('gsi3', `${tenantPrefix(client)}GROUP#${part(group)}#LOGS`), sortPrefix: '' }),
  },
  /** GPS fixes: the same four time-ordered lists as device logs (by the fix's `timestamp`, UTC), prefix `GPS#`. */
  gps: {
    item: (client: string, entry: TimedDeviceData): ItemKeys => timedDeviceDataKeys(client, entry, 'GPS', 'GPS', ENTITY.gps),
    byDevice: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'GPS#'),
    byTenant: (client: string): TimedList => ({ ...list('gsi1', `${tenantPrefix(client)}DEVICE_GPS`), sortPrefix: '' }),
    byDeviceUser: (client: string, deviceUserReference: string): TimedList => ({
      ...list('gsi2', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#GPS`),
      sortPrefix: '',
    }),
    byGroup: (client: string, group: string): TimedList => ({ ...list('gsi3', `${tenantPrefix(client)}GROUP#${part(group)}#GPS`), sortPrefix: '' }),
  },
  /**
   * Telemetry, in the device's partition: the latest report (`TELEMETRY#LATEST`, one GetItem, batch-read for the
   * fleet list) and every report by receive time (`TELEMETRY#AT#<received ISO>#<id>`, newest first with a range).
   */
  telemetry: {
    latest: (client: string, deviceReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: 'TELEMETRY#LATEST',
      entity: ENTITY.telemetry,
    }),
    history: (client: string, deviceReference: string, receivedAt: Date | string, id: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`,
      sk: `TELEMETRY#AT#${timeSort(receivedAt, id)}`,
      entity: ENTITY.telemetry,
    }),
    historyOf: (client: string, deviceReference: string): TimedList => deviceTimedList(client, deviceReference, 'TELEMETRY#AT#'),
  },
};

/** Where a timed device record (log line, GPS fix) sits: its time, id, device and the device's holder then. */
export interface TimedDeviceData {
  time: Date | string;
  id: string;
  deviceReference: string;
  deviceUserReference?: string | undefined;
  group?: string | undefined;
}

/** A time-ordered list: sort keys are `<sortPrefix><ISO time>#<id>`, so a time range is a key condition. */
export type TimedList = ListKey & { sortPrefix: string };

function deviceTimedList(client: string, deviceReference: string, sortPrefix: string): TimedList {
  return { ...list(undefined, `${tenantPrefix(client)}DEVICE#${part(deviceReference)}`), sortPrefix };
}

function timedDeviceDataKeys(client: string, entry: TimedDeviceData, sortTag: string, listTag: string, entity: EntityName): ItemKeys {
  const sort = timeSort(entry.time, entry.id);
  const tenant = tenantPrefix(client);
  return {
    pk: `${tenant}DEVICE#${part(entry.deviceReference)}`,
    sk: `${sortTag}#${sort}`,
    entity,
    gsi1pk: `${tenant}DEVICE_${listTag}`,
    gsi1sk: sort,
    ...(entry.deviceUserReference === undefined ? {} : { gsi2pk: `${tenant}DUSER#${part(entry.deviceUserReference)}#${listTag}`, gsi2sk: sort }),
    ...(entry.group === undefined ? {} : { gsi3pk: `${tenant}GROUP#${part(entry.group)}#${listTag}`, gsi3sk: sort }),
  };
}

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
