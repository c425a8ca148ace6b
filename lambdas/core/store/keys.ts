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
  userActivity: 'UserActivity',
  deviceActivity: 'DeviceActivity',
  clientApp: 'ClientApp',
  supportAccess: 'SupportAccess',
  auditHead: 'AuditHead',
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
  alert: {
    item: (client: string, alertReference: string, lastOccurrence: Date | string): ItemKeys => ({
      pk: `${tenantPrefix(client)}ALERT#${part(alertReference)}`,
      sk: 'ALERT',
      entity: ENTITY.alert,
      gsi1pk: `${tenantPrefix(client)}ALERTS`,
      gsi1sk: timeSort(lastOccurrence, alertReference),
    }),
    key: (client: string, alertReference: string): ItemKey => ({
      pk: `${tenantPrefix(client)}ALERT#${part(alertReference)}`,
      sk: 'ALERT',
    }),
    list: (client: string): ListKey => list('gsi1', `${tenantPrefix(client)}ALERTS`),
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
  userActivity: {
    item: (client: string, activityTime: Date | string, logId: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}USER_ACTIVITY`,
      sk: timeSort(activityTime, logId),
      entity: ENTITY.userActivity,
    }),
    list: (client: string): ListKey => list(undefined, `${tenantPrefix(client)}USER_ACTIVITY`),
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
