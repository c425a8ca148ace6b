import type { InstallState } from '#shared/constants/devices.ts';
import type { DeviceAuthRequest, DeviceAuthResponse } from '#shared/contract/entities/device-auth.ts';
import { createDeviceTokens, deviceTokenSecret } from '#core/auth/device-token.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { openDeviceReference } from '../device-crypto/public.ts';
import { ConditionFailedError, type TransactOperation, type WriteCondition } from '#core/ports/table-store.ts';
import { dashboardCounterOperations, deviceCounterChanges } from '../metrics/public.ts';
import { deviceGroupStatsOperations } from '../metrics/public.ts';
import { deviceLastSeenToItem, deviceToItem, readDevice, type DeviceItem } from '#core/store/entities/device.ts';
import { readDeviceUser, type DeviceUserItem } from '#core/store/entities/device-user.ts';
import { phoneNumberToItem, readPhoneNumber } from '#core/store/entities/phone-number.ts';
import { keys } from '#core/store/keys.ts';
import { ConflictError, InternalError } from '#core/errors.ts';
import type { ActivityRecordRef } from '#core/ports/activity-log.ts';
import { unchangedItem } from '#core/store/unchanged-item.ts';
import { versionWrites } from '../audit/public.ts';

type Deps = Pick<Dependencies, 'table' | 'keys' | 'clock' | 'config'>;

/** Attributes a device item may gain that the item read lacked: an assignment's version is the item exactly as replaced. */
const ASSIGNMENT_ATTRIBUTES = ['device_user_reference', 'group', 'email', 'first_name', 'surname', 'updated_at', 'last_seen', 'deactivation_date', 'retention_state'];

/**
 * install_state (docs/device-protocol.md), in this order:
 * - NoInstallationId: the request carries no installation_id (nothing to compare);
 * - NewInstall: the device reference is unknown, or known but on other hardware (no IMEI in common);
 * - NoChange: same installation_id as stored (or none was stored yet);
 * - FactoryReset: known device, a different installation_id, and at least one IMEI in common (same phone, app data
 *   lost: a wipe or a reinstall, which the server cannot tell apart).
 */
export function installStateOf(
  before: Pick<DeviceItem, 'installation_id' | 'imeis'> | undefined,
  request: Pick<DeviceAuthRequest, 'installation_id' | 'imeis'>,
): InstallState {
  if (request.installation_id === undefined) return 'NoInstallationId';
  if (before === undefined) return 'NewInstall';
  const stored = before.installation_id;
  if (stored === undefined || stored === request.installation_id) return 'NoChange';
  const known = new Set(before.imeis);
  return request.imeis.some((imei) => known.has(imei)) ? 'FactoryReset' : 'NewInstall';
}

/** The device user: the one the device item remembers, else the first of the request's numbers that names one. */
async function resolveDeviceUser(deps: Deps, client: string, before: DeviceItem | undefined, numbers: string[]): Promise<DeviceUserItem | undefined> {
  let reference = before?.device_user_reference;
  if (reference === undefined) {
    const found = (await deps.table.batchGet(numbers.map((number) => keyOf(keys.phoneNumber.item(client, number))))).map(readPhoneNumber);
    const byNumber = new Map(found.map((entry) => [entry.phone_number, entry]));
    reference = numbers.map((number) => byNumber.get(number)).find((entry) => entry !== undefined)?.device_user_reference;
  }
  if (reference === undefined) return undefined;
  const item = await deps.table.get(keys.deviceUser.key(client, reference), { consistent: true });
  return item === undefined ? undefined : readDeviceUser(item);
}

const keyOf = (item: { pk: string; sk: string }) => ({ pk: item.pk, sk: item.sk });

/** Phone numbers as the device item keeps them: first_verified kept, last_verified now, slot = position. */
function mergePhoneNumbers(before: DeviceItem | undefined, numbers: string[], now: string) {
  const previous = new Map((before?.phone_numbers ?? []).map((entry) => [entry.phone_number, entry]));
  return numbers.map((phone_number, slot_index) => ({
    phone_number,
    first_verified: previous.get(phone_number)?.first_verified ?? now,
    last_verified: now,
    slot_index,
  }));
}

/** The action of the device's own activity record of a reassignment or reactivation (no role performs it). */
export const REASSIGN_ACTION = 'devices:Reassign';

/**
 * The device's activity record of its move to a new holder or group (or its reactivation): the authentication exchange has no open record
 * (the device has no token yet; the pipeline records the call once answered), so the version of the device as it was
 * is carried by this record, written in the same transaction, and the chain covers it.
 */
function reassignmentRecord(client: string, deviceReference: string, before: DeviceItem | undefined, after: DeviceItem, now: string) {
  const entry = {
    device_reference: deviceReference,
    ...(after.device_user_reference === undefined ? {} : { device_user_reference: after.device_user_reference }),
    ...(after.group === undefined ? {} : { group: after.group }),
    activity_time: now,
    action: REASSIGN_ACTION,
    is_allowed: true,
    parameters: {
      ...(before?.device_user_reference === undefined ? {} : { previous_device_user_reference: before.device_user_reference }),
      ...(before?.group === undefined ? {} : { previous_group: before.group }),
      ...(before?.is_deactivated === true ? { reactivated: true } : {}),
    },
  };
  return { trail: 'device' as const, client, entry };
}

/**
 * The portal link a phone is given. `PORTAL_URL` is set on this function (lib/stacks/api-stack.ts; the env-wiring
 * test holds every function to the variables its code reads); without it, a deployment fault, AWS refuses rather than
 * hand out a link that goes nowhere.
 */
function clientPortalUrl(deps: Deps, client: string): string {
  const base = deps.config.PORTAL_URL ?? (deps.config.VERITY_MODE === 'local' ? 'http://localhost:3000' : undefined);
  if (base === undefined) throw new InternalError('Device API not configured: PORTAL_URL missing');
  return `${base.replace(/\/+$/, '')}/?client=${encodeURIComponent(client)}`;
}

/**
 * The device authentication exchange (DESIGN.md §7): opens the sealed reference, resolves the device user, computes
 * install_state, writes the device (activated, not deactivated, not legacy) with its dashboard counters, group stats
 * and phone-number index in ONE transaction, and issues a device token bound to the new activation epoch.
 */
export async function authenticateDevice(deps: Deps, request: DeviceAuthRequest, activity?: ActivityRecordRef): Promise<DeviceAuthResponse> {
  const { client, deviceReference } = await openDeviceReference(deps, request.ulid_encrypted);
  const numbers = [...new Set(request.phone_numbers)];
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await attemptAuthentication(deps, { client, deviceReference, activity }, request, numbers);
    } catch (error) {
      // Two racing authentications of one device: re-read and redo (the loser sees the winner's item).
      if (!(error instanceof ConditionFailedError) || attempt >= 2) throw error instanceof ConditionFailedError ? new ConflictError('Device changed meanwhile: try again') : error;
    }
  }
}

async function attemptAuthentication(
  deps: Deps,
  { client, deviceReference, activity }: { client: string; deviceReference: string; activity?: ActivityRecordRef | undefined },
  request: DeviceAuthRequest,
  numbers: string[],
) {
  const now = deps.clock.now().toISOString();
  const deviceKey = keyOf(keys.device.item(client, deviceReference));
  const stored = await deps.table.get(deviceKey, { consistent: true });
  const before = stored === undefined ? undefined : readDevice(stored);
  const user = await resolveDeviceUser(deps, client, before, numbers);
  const installState = installStateOf(before, request);
  const userReference = user?.device_user_reference;
  const group = user?.group ?? before?.group;
  // Only an onboarded user's services are enabled.
  const services = user?.is_active === true ? user.services : [];
  // A fresh epoch on every (re-)activation: tokens issued before a deactivation never come back to life.
  const activatedAt = before !== undefined && !before.is_deactivated && before.activated_at !== undefined ? before.activated_at : now;

  const { deactivation_date: _ended, ...kept }: Partial<DeviceItem> = before ?? {};
  const after: DeviceItem = {
    ...kept,
    client,
    device_reference: deviceReference,
    ...(userReference === undefined ? {} : { device_user_reference: userReference }),
    ...(group === undefined ? {} : { group }),
    services,
    imeis: request.imeis,
    ...(user?.email === undefined ? {} : { email: user.email }),
    ...(user?.first_name === undefined ? {} : { first_name: user.first_name }),
    ...(user?.surname === undefined ? {} : { surname: user.surname }),
    last_seen: now,
    is_deactivated: false,
    activated_at: activatedAt,
    is_legacy: false,
    phone_numbers: mergePhoneNumbers(before, numbers, now),
    ...(request.installation_id === undefined ? {} : { installation_id: request.installation_id }),
    install_state: installState,
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(request.os_version === undefined ? {} : { os_version: request.os_version }),
    ...(request.app_version === undefined ? {} : { app_version: request.app_version }),
    ...(request.serial_number === undefined ? {} : { serial_number: request.serial_number }),
    ...(request.fcm_token === undefined ? {} : { fcm_token: request.fcm_token }),
    updated_at: now,
    updated_by: `device:${deviceReference}`,
  };

  // A new holder or group (the device's assignment), or a reactivation (a deactivated device signing in again), keeps
  // the device as it was as a version, made by the device: the write then holds only while the item is exactly the
  // one read (uploads move last_seen without updated_at).
  const reassigned = stored !== undefined && (before?.device_user_reference !== userReference || before?.group !== group || before?.is_deactivated === true);
  // Optimistic: the item is written only if nobody changed it since it was read.
  const condition: WriteCondition =
    stored === undefined || before === undefined
      ? { kind: 'item-not-exists' }
      : reassigned
        ? unchangedItem(stored, ASSIGNMENT_ATTRIBUTES)
        : before.updated_at !== undefined
          ? { kind: 'expression', expression: '#u = :u', names: { '#u': 'updated_at' }, values: { ':u': before.updated_at } }
          : { kind: 'item-exists' };
  // The last-seen index item (the inactivity job's candidates) moves with last_seen, in the same transaction.
  const operations: TransactOperation[] = [
    { kind: 'put', item: deviceToItem(client, after), condition },
    { kind: 'put', item: deviceLastSeenToItem(client, deviceReference, now) },
    ...(stored !== undefined && reassigned
      ? versionWrites({ deps, principal: { kind: 'device', client, deviceReference }, activity, record: reassignmentRecord(client, deviceReference, before, after, now) }, [
          { entity: 'device-assignment', reference: deviceReference, stored, change: 'updated' },
        ])
      : []),
  ];
  operations.push(...dashboardCounterOperations(client, deviceCounterChanges(before, after)));
  // Group stats: the device's actual_devices and per-service active_devices move with it (a deactivated device was
  // taken out of them by its deactivation, so it counts anew; a change of services or group moves its share).
  operations.push(...(await deviceGroupStatsOperations(deps, client, before, after)));
  if (userReference !== undefined) {
    for (const number of numbers) {
      operations.push({
        kind: 'put',
        item: phoneNumberToItem(client, { client, phone_number: number, device_user_reference: userReference, device_reference: deviceReference, updated_at: now }),
      });
    }
  }
  await deps.table.transactWrite(operations);

  const tokens = createDeviceTokens({ secret: deviceTokenSecret(deps.config), table: deps.table, clock: deps.clock });
  const { token, expiresIn } = tokens.issue({
    client,
    deviceReference,
    activatedAt,
    ...(userReference === undefined ? {} : { deviceUserReference: userReference }),
    ...(group === undefined ? {} : { group }),
  });
  return {
    access_token: token,
    expires_in: expiresIn,
    client_portal_url: clientPortalUrl(deps, client),
    enabled_services: services,
    account_reference: client,
    install_state: installState,
  };
}
