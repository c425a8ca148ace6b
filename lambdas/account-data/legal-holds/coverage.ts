import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readDeviceHolder } from '#core/store/entities/device.ts';
import { readLegalHold, type LegalHoldItem } from '#core/store/entities/legal-hold.ts';
import { readRecordPeople } from '#core/store/entities/record-people.ts';
import { keys } from '#core/store/keys.ts';
import type { LegalHoldTargetType } from '#shared/constants/account.ts';

/**
 * What a legal hold covers (docs/decisions.md "Legal holds"). A hold on a device user covers their recordings (the
 * payloads attributed to them), their GPS fixes and device logs, and the data of the devices they hold (what those
 * devices recorded, attributed or not). A hold on a portal user covers what that person wrote (comments, receipts),
 * all of it in the table. So one recording can be covered by two holds: the one on the device user it is attributed
 * to and the one on whoever holds its device now; its object stays locked while either is active.
 */

export interface HoldTarget {
  targetType: LegalHoldTargetType;
  target: string;
}

type TableDependencies = Pick<Dependencies, 'table'>;

export async function readHold(deps: TableDependencies, client: string, target: HoldTarget): Promise<LegalHoldItem | undefined> {
  const item = await deps.table.get(keys.legalHold.key(client, target.targetType, target.target), { consistent: true });
  return item === undefined ? undefined : readLegalHold(item);
}

/** Whether an active hold names this target (one GetItem). */
export async function isHeld(deps: TableDependencies, client: string, target: HoldTarget): Promise<boolean> {
  return (await readHold(deps, client, target))?.is_active === true;
}

/** A recording as coverage sees it: the device that recorded it and the device user it is attributed to. */
export interface Recording {
  device_reference: string;
  device_user_reference?: string | undefined;
}

/**
 * Answers whether any active hold covers a recording, remembering what it read (device holders, held users) so a
 * walk over many recordings of the same people reads each fact once.
 */
export function holdCoverage(deps: TableDependencies, client: string): (recording: Recording) => Promise<boolean> {
  const covering = holdCovering(deps, client);
  return async (recording) => (await covering(recording)) !== undefined;
}

/** The same, answering which hold covers the recording (its device user's, else its device holder's), if any. */
export function holdCovering(deps: TableDependencies, client: string): (recording: Recording) => Promise<HoldTarget | undefined> {
  const held = new Map<string, Promise<boolean>>();
  const holders = new Map<string, Promise<string | undefined>>();
  const userHeld = (user: string) => {
    let answer = held.get(user);
    if (answer === undefined) held.set(user, (answer = isHeld(deps, client, { targetType: 'DeviceUser', target: user })));
    return answer;
  };
  const holderOf = (device: string) => {
    let answer = holders.get(device);
    if (answer === undefined) {
      answer = deps.table.get(keys.device.key(client, device), { consistent: true }).then((item) => (item === undefined ? undefined : readDeviceHolder(item).device_user_reference));
      holders.set(device, answer);
    }
    return answer;
  };
  return async (recording) => {
    if (recording.device_user_reference !== undefined && (await userHeld(recording.device_user_reference))) {
      return { targetType: 'DeviceUser', target: recording.device_user_reference };
    }
    const holder = await holderOf(recording.device_reference);
    return holder !== undefined && holder !== recording.device_user_reference && (await userHeld(holder)) ? { targetType: 'DeviceUser', target: holder } : undefined;
  };
}

/**
 * Which active hold keeps a stored record out of retention, if any (what the retention job skips, and where it parks
 * the record's due markers): a device's data by the holds on the recording's people (`holdCovering`), a portal
 * user's activity records by the hold on that person, a device user's own record by the hold on them. Remembers what it read, like `holdCoverage`.
 */
export function recordHolds(deps: TableDependencies, client: string): (item: TableItem) => Promise<HoldTarget | undefined> {
  const covering = holdCovering(deps, client);
  const portalHeld = new Map<string, Promise<boolean>>();
  const isPortalUserHeld = (user: string) => {
    let answer = portalHeld.get(user);
    if (answer === undefined) portalHeld.set(user, (answer = isHeld(deps, client, { targetType: 'PortalUser', target: user })));
    return answer;
  };
  return async (item) => {
    const people = readRecordPeople(item);
    if (people === undefined) return undefined;
    if (people.device_reference !== undefined) {
      const hold = await covering({ device_reference: people.device_reference, device_user_reference: people.device_user_reference });
      if (hold !== undefined) return hold;
    }
    if (people.entity === 'UserActivity' && people.user_id !== undefined && (await isPortalUserHeld(people.user_id))) return { targetType: 'PortalUser', target: people.user_id };
    // A hold on a device user keeps that person's own record too (DeviceUserData).
    if (people.entity === 'DeviceUser' && people.device_user_reference !== undefined) {
      const target: HoldTarget = { targetType: 'DeviceUser', target: people.device_user_reference };
      if (await isHeld(deps, client, target)) return target;
    }
    return undefined;
  };
}

/** Whether any active hold covers this one recording (processing asks before it writes the processed object). */
export function isRecordingHeld(deps: TableDependencies, client: string, recording: Recording): Promise<boolean> {
  return holdCoverage(deps, client)(recording);
}
