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
  dashboardCounters: 'DashboardCounters',
  deviceHistory: 'DeviceHistory',
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

/** A list access pattern: which partition of which index (or the table) to Query. */
export type ListKey = Pick<QuerySpec, 'index' | 'partition'>;

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
  role: {
    item: (client: string, roleReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ROLES`,
      sk: `ROLE#${part(roleReference)}`,
      entity: ENTITY.role,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}ROLES`),
  },
  group: {
    item: (client: string, groupReference: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}GROUPS`,
      sk: `GROUP#${part(groupReference)}`,
      entity: ENTITY.group,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}GROUPS`),
  },
  tagDefinition: {
    item: (client: string, tagKey: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}TAGS`,
      sk: `TAG#${part(tagKey)}`,
      entity: ENTITY.tagDefinition,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}TAGS`),
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
  /** Which device user a phone number belongs to (device authentication resolves the user by number). */
  phoneNumber: {
    item: (client: string, phoneNumber: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PHONE#${part(phoneNumber)}`,
      sk: 'PHONE',
      entity: ENTITY.phoneNumber,
    }),
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
};

/** Object key of a payload's bytes in the raw or processed bucket: tenant first, like every table key. */
export function payloadObjectKey(client: string, payloadReference: string): string {
  tenantPrefix(client);
  return `${client}/payloads/${encodeURIComponent(payloadReference)}`;
}
