import type { ItemKey } from '../../ports/table-store.ts';
import { ENTITY, list, part, tenantPrefix, timeSort, type ItemKeys, type ListKey } from '../key-parts.ts';

/** Devices and what hangs off them: device users, device keys, licences, metrics, carriers, phone numbers, commands. */
export const devicesKeys = {
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
     * (lambdas/metrics/dashboard-counters.ts), so the dashboard is one GetItem at any fleet size.
     */
    dashboardCounters: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}DASHBOARD`, sk: 'COUNTERS' }),
    /**
     * One group's share of the dashboard counters (same attributes), in the same partition as the tenant's item and
     * written in the same transaction: a group-limited role's dashboard sums the shares of its groups (one Query).
     */
    groupDashboardCounters: (client: string, group: string): ItemKey => ({ pk: `${tenantPrefix(client)}DASHBOARD`, sk: `GROUP#${part(group)}` }),
    /** The groups' shares of the dashboard counters (`groupDashboardCounters`), by group name. */
    listGroupDashboardCounters: (client: string): ListKey => ({ ...list(undefined, `${tenantPrefix(client)}DASHBOARD`), sort: { beginsWith: 'GROUP#' } }),
    /**
     * The device's place in the tenant's last-seen index, for the inactivity job (lambdas/devices/deactivation.ts).
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
   * A client's licences (lambdas/licences): ONE item holding the limits staff set (`limit_<service>`) and the use
   * counters (`used_<service>`, active device users with the service), so a device-user write can ADD to the use with
   * a condition on the limit of the same item, in its own transaction.
   */
  licence: {
    item: (client: string): ItemKey => ({ pk: `${tenantPrefix(client)}LICENCES`, sk: 'LICENCES' }),
  },
  /**
   * Payload metrics (lambdas/metrics): one partition per tenant and scope, sort key `<period>#<device>`, so a
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
  /**
   * Which device user a phone number belongs to (device authentication resolves the user by number). gsi1 lists one
   * device user's numbers (retention destroys them with the person); the item is rewritten whole when its number moves
   * to another user, so the index key moves with it. Items written before the index have no gsi1 key.
   */
  phoneNumber: {
    item: (client: string, phoneNumber: string, deviceUserReference?: string): ItemKeys => ({
      pk: `${tenantPrefix(client)}PHONE#${part(phoneNumber)}`,
      sk: 'PHONE',
      entity: ENTITY.phoneNumber,
      ...(deviceUserReference === undefined
        ? {}
        : { gsi1pk: `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#PHONE_NUMBERS`, gsi1sk: part(phoneNumber) }),
    }),
    /** Primary key alone (get, delete). */
    key: (client: string, phoneNumber: string): ItemKey => ({ pk: `${tenantPrefix(client)}PHONE#${part(phoneNumber)}`, sk: 'PHONE' }),
    listByDeviceUser: (client: string, deviceUserReference: string): ListKey =>
      list('gsi1', `${tenantPrefix(client)}DUSER#${part(deviceUserReference)}#PHONE_NUMBERS`),
  },
  /**
   * Device commands (lambdas/commands). A command lives in its device's partition (`COMMAND#<ulid>`). gsi1 lists
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
      ...devicesKeys.command.key(client, deviceReference, commandReference),
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
};
