import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { readDevice } from '#core/store/entities/device.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey } from '#core/store/keys.ts';
import { cursorKeyOf } from '#core/store/paging.ts';
import { holdCoverage } from './coverage.ts';

export type ObjectHoldDependencies = Pick<Dependencies, 'table' | 'blobs'>;

/** Items read per Query page: one page's objects are changed before the next page is read. */
export const HOLD_PAGE = 100;
/** Object Lock calls in flight at once. */
const PARALLEL = 10;

/** States whose recording has a processed object (Deleted is logical: the object stays until destroyed). */
const WITH_OBJECT = new Set<string>(['Processed', 'Transferred', 'Deleted']);

/** Runs `work` over `values`, PARALLEL at a time. */
async function inBatches<T>(values: readonly T[], work: (value: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < values.length; start += PARALLEL) await Promise.all(values.slice(start, start + PARALLEL).map(work));
}

const QueryKey = z.record(z.string(), z.string());

/**
 * Where a walk over a device user's recordings stands, saved between pages so a job can resume it: on their own list
 * (gsi3, by device user) while `device` is absent, then on each list of a device they hold (gsi2, by device), in the
 * order of their devices list (`device.key` is the device's place in it). `start_key` is the Query's position there.
 */
export const WalkPosition = z.object({
  device: z.object({ reference: z.string(), key: QueryKey }).optional(),
  start_key: QueryKey.optional(),
});
export type WalkPosition = z.infer<typeof WalkPosition>;

/** One page walked: how many objects it met and changed, and where the walk goes on (absent when it is done). */
export interface WalkedPage {
  objects: number;
  changed: number;
  next?: WalkPosition;
}

/** The device after `after` in the device user's devices list (the first with none), or undefined past the last. */
async function nextDevice(deps: Pick<Dependencies, 'table'>, client: string, deviceUser: string, after?: Record<string, string>) {
  const list = keys.device.listByDeviceUser(client, deviceUser);
  const page = await deps.table.query({ ...list, limit: 1, ...(after === undefined ? {} : { startKey: after }) });
  const item = page.items[0];
  return item === undefined ? undefined : { reference: readDevice(item).device_reference, key: cursorKeyOf(list, item) };
}

/**
 * Walks one Query page of the recordings a device user's hold covers, from `position`, and puts each one's processed
 * object in step (DESIGN.md §8): `on` sets its Object Lock legal hold; `off` clears it only where no other active hold
 * still covers the recording (holdCoverage reads the holds as they are now). On a device's list, the user's own
 * recordings were met on their own list already. Idempotent: walking a page again changes nothing twice.
 */
export async function walkHoldPage(
  deps: ObjectHoldDependencies,
  client: string,
  deviceUser: string,
  { direction, position }: { direction: 'on' | 'off'; position: WalkPosition },
): Promise<WalkedPage> {
  const list = position.device === undefined ? keys.payload.listByDeviceUser(client, deviceUser) : keys.payload.listByDevice(client, position.device.reference);
  const page = await deps.table.query({ ...list, limit: HOLD_PAGE, ...(position.start_key === undefined ? {} : { startKey: position.start_key }) });
  const recordings = page.items
    .map(readPayload)
    .filter((payload) => WITH_OBJECT.has(payload.payload_state) && (position.device === undefined || payload.device_user_reference !== deviceUser));
  const covered = holdCoverage(deps, client);
  let changed = 0;
  await inBatches(recordings, async (payload: PayloadItem) => {
    if (direction === 'off' && (await covered(payload))) return;
    if (await deps.blobs.setLegalHold('processed', payloadObjectKey(client, payload.payload_reference), direction === 'on')) changed += 1;
  });
  const walked = { objects: recordings.length, changed };
  if (page.lastKey !== undefined) return { ...walked, next: { ...position, start_key: page.lastKey } };
  const device = await nextDevice(deps, client, deviceUser, position.device?.key);
  return device === undefined ? walked : { ...walked, next: { device } };
}

/**
 * Walks every page at once (small holds and tests; a request or job bounds its walk with hold-sync.ts instead).
 * Memory stays bounded whatever the count: one page at a time. Answers how many objects it changed.
 */
export async function syncObjectHolds(deps: ObjectHoldDependencies, client: string, deviceUser: string, direction: 'on' | 'off'): Promise<number> {
  let changed = 0;
  let position: WalkPosition | undefined = {};
  while (position !== undefined) {
    const page: WalkedPage = await walkHoldPage(deps, client, deviceUser, { direction, position });
    changed += page.changed;
    position = page.next;
  }
  return changed;
}
