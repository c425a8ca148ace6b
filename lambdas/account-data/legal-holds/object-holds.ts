import type { Dependencies } from '#core/dependencies.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { readDevice } from '#core/store/entities/device.ts';
import { readPayload, type PayloadItem } from '#core/store/entities/payload.ts';
import { keys, payloadObjectKey, type ListKey } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { holdCoverage } from './coverage.ts';

export type ObjectHoldDependencies = Pick<Dependencies, 'table' | 'blobs'>;

/** Items read per Query page: one page's objects are changed before the next page is read. */
export const HOLD_PAGE = 100;
/** Object Lock calls in flight at once. */
const PARALLEL = 10;

/** States whose recording has a processed object (Deleted is logical: the object stays until destroyed). */
const WITH_OBJECT = new Set<string>(['Processed', 'Transferred', 'Deleted']);

/** The items of a list, a bounded Query page at a time (a device user's recordings can be tens of thousands). */
function pagesOf(deps: Pick<Dependencies, 'table'>, list: ListKey): AsyncGenerator<TableItem[]> {
  return eachPage(deps.table, list, HOLD_PAGE);
}

/** Runs `work` over `values`, PARALLEL at a time. */
async function inBatches<T>(values: readonly T[], work: (value: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < values.length; start += PARALLEL) await Promise.all(values.slice(start, start + PARALLEL).map(work));
}

/**
 * The payload lists a device user's hold covers: theirs (gsi3, by device user) and each of their devices' (gsi2, by
 * device), the indexes the payload lists use. On a device's list, their own recordings were met on theirs already.
 */
async function coveredLists(deps: Pick<Dependencies, 'table'>, client: string, deviceUser: string) {
  const lists: Array<{ list: ListKey; skip?: (payload: PayloadItem) => boolean }> = [{ list: keys.payload.listByDeviceUser(client, deviceUser) }];
  for await (const devices of pagesOf(deps, keys.device.listByDeviceUser(client, deviceUser))) {
    for (const item of devices) {
      lists.push({ list: keys.payload.listByDevice(client, readDevice(item).device_reference), skip: (payload) => payload.device_user_reference === deviceUser });
    }
  }
  return lists;
}

/**
 * Puts the processed objects of the recordings a device user's hold covers in step with the holds (DESIGN.md §8):
 * `on` sets each object's Object Lock legal hold; `off` clears it only where no other active hold still covers the
 * recording (holdCoverage). Reads a Query page at a time, so memory stays bounded whatever the count; the time grows
 * with it (about 10 objects in flight), so a very large hold belongs in a job (docs/decisions.md "Legal holds").
 * Idempotent: run again after a failure, it finishes what the last run left. Answers how many objects it changed.
 */
export async function syncObjectHolds(deps: ObjectHoldDependencies, client: string, deviceUser: string, direction: 'on' | 'off'): Promise<number> {
  const covered = holdCoverage(deps, client);
  let changed = 0;
  for (const { list, skip } of await coveredLists(deps, client, deviceUser)) {
    for await (const page of pagesOf(deps, list)) {
      const recordings = page.map(readPayload).filter((payload) => WITH_OBJECT.has(payload.payload_state) && skip?.(payload) !== true);
      await inBatches(recordings, async (payload: PayloadItem) => {
        if (direction === 'off' && (await covered(payload))) return;
        if (await deps.blobs.setLegalHold('processed', payloadObjectKey(client, payload.payload_reference), direction === 'on')) changed += 1;
      });
    }
  }
  return changed;
}
