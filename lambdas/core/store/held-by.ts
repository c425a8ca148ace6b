import type { Dependencies } from '../dependencies.ts';
import type { HeldBy } from '#shared/contract/entities/legal-hold-ref.ts';
import { readDeviceHolder } from './entities/device.ts';
import { readLegalHold } from './entities/legal-hold.ts';
import { keys } from './keys.ts';
import { eachPage } from './paging.ts';

/**
 * Which active legal holds a record shown to a person falls under (docs/data-model.md "Legal holds shown where the held
 * thing appears"), by the rules of lambdas/account-data/legal-holds/coverage.ts: a device user by the hold on them, a
 * portal user by the hold on them, a device by the hold on the device user who holds it, a recording by the hold on
 * the device user it is attributed to and the hold on whoever holds its device now.
 *
 * Read once per request, never per row: one Query of the tenant's holds partition (a tenant has a handful of holds),
 * then, for each held device user, one Query of the devices they hold. Every row of a page is then matched in memory.
 */

type TableDependencies = Pick<Dependencies, 'table'>;

export interface HeldByIndex {
  deviceUser(reference: string | undefined): HeldBy[];
  portalUser(userId: string | undefined): HeldBy[];
  device(device: { device_reference: string; device_user_reference?: string | undefined }): HeldBy[];
  recording(recording: { device_reference?: string | undefined; device_user_reference?: string | undefined }): HeldBy[];
}

const NONE: HeldBy[] = [];

/** The tenant's active holds, as targets (one Query of the holds partition, all its pages). */
export async function activeHoldTargets(deps: TableDependencies, client: string): Promise<HeldBy[]> {
  const holds: HeldBy[] = [];
  for await (const page of eachPage(deps.table, keys.legalHold.list(client))) {
    for (const item of page) {
      const hold = readLegalHold(item);
      if (hold.is_active) holds.push({ target: hold.target, target_type: hold.target_type });
    }
  }
  return holds;
}

/** The index of one request: the tenant's active holds and the devices the held device users hold. */
export async function heldByIndex(deps: TableDependencies, client: string): Promise<HeldByIndex> {
  const holds = await activeHoldTargets(deps, client);
  const users = new Map<string, HeldBy>();
  const portal = new Map<string, HeldBy>();
  for (const hold of holds) (hold.target_type === 'DeviceUser' ? users : portal).set(hold.target, hold);
  /** Device reference → the hold on the device user who holds it now. */
  const devices = new Map<string, HeldBy>();
  await Promise.all(
    [...users.values()].map(async (hold) => {
      for await (const page of eachPage(deps.table, keys.device.listByDeviceUser(client, hold.target))) {
        for (const item of page) {
          const device = typeof item.device_reference === 'string' ? item.device_reference : undefined;
          const holder = readDeviceHolder(item).device_user_reference;
          // The index may lag the device's own item by a moment: only a device whose holder is this user counts.
          if (device !== undefined && holder === hold.target) devices.set(device, hold);
        }
      }
    }),
  );
  const one = (hold: HeldBy | undefined) => (hold === undefined ? NONE : [hold]);
  return {
    deviceUser: (reference) => one(reference === undefined ? undefined : users.get(reference)),
    portalUser: (userId) => one(userId === undefined ? undefined : portal.get(userId)),
    device: (device) => {
      const hold = devices.get(device.device_reference) ?? (device.device_user_reference === undefined ? undefined : users.get(device.device_user_reference));
      return one(hold);
    },
    recording: (recording) => {
      const attributed = recording.device_user_reference === undefined ? undefined : users.get(recording.device_user_reference);
      const byDevice = recording.device_reference === undefined ? undefined : devices.get(recording.device_reference);
      if (attributed !== undefined && byDevice !== undefined && byDevice.target !== attributed.target) return [attributed, byDevice];
      return one(attributed ?? byDevice);
    },
  };
}

/** The field a response carries: present only when something holds the record (absent reads "not held"). */
export function heldByField(holds: HeldBy[]): { held_by?: HeldBy[] } {
  return holds.length === 0 ? {} : { held_by: holds };
}

/** Which holds one row falls under, read from the request's index. */
export type HoldsOf<T> = (index: HeldByIndex, row: T) => HeldBy[];

/** Rows with the holds each falls under (`held_by`), from one index read for all of them. */
export async function withHeldBy<T extends object>(deps: TableDependencies, client: string, rows: readonly T[], holdsOf: HoldsOf<T>): Promise<T[]> {
  if (rows.length === 0) return [...rows];
  const index = await heldByIndex(deps, client);
  return rows.map((row) => ({ ...row, ...heldByField(holdsOf(index, row)) }));
}

/** One row (a detail page) the same way. */
export async function oneWithHeldBy<T extends object>(deps: TableDependencies, client: string, row: T, holdsOf: HoldsOf<T>): Promise<T> {
  const [marked] = await withHeldBy(deps, client, [row], holdsOf);
  return marked ?? row;
}

/** A page (or a count, which has no rows) with its rows marked. */
export async function pageWithHeldBy<T extends object, R extends { data: T[] } | { count: number }>(
  deps: TableDependencies,
  client: string,
  result: R,
  holdsOf: HoldsOf<T>,
): Promise<R> {
  if (!('data' in result)) return result;
  return {
    ...result,
    data: await withHeldBy(deps, client, result.data, holdsOf),
  };
}

/** How each kind of row is matched. */
export const holdsOfDeviceUser: HoldsOf<{ device_user_reference: string }> = (index, user) => index.deviceUser(user.device_user_reference);
export const holdsOfDevice: HoldsOf<{
  device_reference: string;
  device_user_reference?: string | undefined;
}> = (index, device) => index.device(device);
export const holdsOfRecording: HoldsOf<{
  device_reference?: string | undefined;
  device_user_reference?: string | undefined;
}> = (index, recording) => index.recording(recording);
