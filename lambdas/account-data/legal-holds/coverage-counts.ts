import * as z from 'zod';
import { inDeviceScope } from '#core/auth/access/device-group-scope.ts';
import type { GroupScope } from '#core/auth/access/group-scope.ts';
import type { PayloadAccess } from '#core/auth/access/payload-access.ts';
import type { Dependencies } from '#core/dependencies.ts';
import type { QuerySpec, TableItem } from '#core/ports/table-store.ts';
import { readDevice } from '#core/store/entities/device.ts';
import { readPortalUser } from '#core/store/entities/portal-user.ts';
import { readItem } from '#core/store/entities/read-item.ts';
import { ENTITY } from '#core/store/key-parts.ts';
import { keys, type ListKey, type TimedList } from '#core/store/keys.ts';
import { eachPage } from '#core/store/paging.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { LegalHoldCoverage, LegalHoldCoverageCount } from '#shared/contract/entities/account-data.ts';
import type { HoldTarget } from './coverage.ts';

/**
 * How much an active hold covers, counted by Query on the lists coverage.ts describes (docs/decisions.md "Legal
 * holds"): never a Scan, and never more than COVERAGE_CAP + 1 items read per kind, so a hold on someone with years of
 * recordings answers "more than 1,000" rather than reading them all in a list request. Counts honour the caller: a
 * role limited to some groups or payload types counts only the records it could see; kinds whose records carry no
 * group or type (receipts, activity records) are counted for an unrestricted caller only, and left out otherwise.
 */

/** Items counted per kind at most; past it the count is `capped` ("more than 1,000"). */
export const COVERAGE_CAP = 1_000;

type TableDependencies = Pick<Dependencies, 'table'>;

/** Who a device's data was attributed to when it arrived (payloads, GPS fixes, log lines all carry it). */
const Attribution = z.object({ device_user_reference: z.string().optional() });
const attributedTo = (item: TableItem) => readItem('DeviceData', Attribution, item).device_user_reference;

/** A time-ordered device data list as a Query: a device's partition holds several kinds, told apart by sort prefix. */
function timed({ sortPrefix, ...list }: TimedList): ListKey {
  return sortPrefix === '' ? list : { ...list, sort: { beginsWith: sortPrefix } };
}

/** Who is asking: their group scope and payload-type access (the holds list's action). */
export interface CoverageViewer {
  scope: GroupScope;
  payloads: PayloadAccess;
}

/** What one hold's counting asks: whose hold, seen by whom, and how far to count each kind (COVERAGE_CAP unless given). */
export interface CoverageQuestion {
  target: HoldTarget;
  viewer: CoverageViewer;
  cap?: number;
}

/** Whether the viewer sees every group and every payload type. */
const seesEverything = (viewer: CoverageViewer) => viewer.scope.unrestricted && PAYLOAD_TYPES.every((type) => viewer.payloads.typeAllowed(type));

/** Who counts, and how far: the question's viewer and cap. */
type Counting = Required<Omit<CoverageQuestion, 'target'>>;

/** A list to count, and which of each page's items count (undefined: all). */
interface Counted {
  list: ListKey;
  keep?: (items: TableItem[]) => readonly TableItem[] | Promise<readonly TableItem[]>;
}

/**
 * Counts the items of several lists together, stopping once more than `cap` are found: `{count, capped}` is exact
 * when `capped` is false, else `count` is the cap and there are more.
 */
export async function countCapped(deps: TableDependencies, lists: readonly Counted[], cap = COVERAGE_CAP): Promise<LegalHoldCoverageCount> {
  let count = 0;
  for (const { list, keep } of lists) {
    const query: QuerySpec = { ...list };
    for await (const page of eachPage(deps.table, query, Math.min(cap + 1 - count, 1_000))) {
      count += keep === undefined ? page.length : (await keep(page)).length;
      if (count > cap) return { count: cap, capped: true };
    }
  }
  return { count, capped: false };
}

/** The devices a device user holds now, a bounded page at a time; at most `cap` + 1 of them. */
async function devicesHeldBy(deps: TableDependencies, client: string, deviceUser: string, cap: number): Promise<TableItem[]> {
  const devices: TableItem[] = [];
  for await (const page of eachPage(deps.table, keys.device.listByDeviceUser(client, deviceUser), 100)) {
    devices.push(...page);
    if (devices.length > cap) break;
  }
  return devices;
}

/**
 * A device user's hold: their recordings, GPS fixes, log lines and capture ledger entries, plus what the devices they
 * hold recorded under someone else (their own were counted on their lists already), and those devices.
 */
async function deviceUserCoverage(deps: TableDependencies, client: string, deviceUser: string, { viewer, cap }: Counting): Promise<LegalHoldCoverage> {
  const devices = await devicesHeldBy(deps, client, deviceUser, cap);
  const references = devices.slice(0, cap).map((item) => readDevice(item).device_reference);
  const notTheirs = (items: TableItem[]) => items.filter((item) => attributedTo(item) !== deviceUser);
  // Recordings by their group and payload type; devices by their group; GPS fixes and log lines by their device's
  // group now (core/auth/access/device-group-scope.ts), as their lists show them.
  const recordings = (items: TableItem[]) => viewer.payloads.filter(items);
  const grouped = (items: readonly TableItem[]) => viewer.scope.filter(items);
  const byDevice = inDeviceScope(deps, client, viewer.scope);
  const deviceData = async (items: TableItem[]) => (byDevice === undefined ? items : byDevice(items));
  const lists = (own: ListKey, ofDevice: (device: string) => ListKey, keep: (items: TableItem[]) => Promise<readonly TableItem[]>): Counted[] => [
    { list: own, keep },
    ...references.map((device) => ({ list: ofDevice(device), keep: (items: TableItem[]) => keep(notTheirs(items)) })),
  ];
  // Capture ledger entries carry their payload type and group as recordings do. The device user's list also holds the
  // Unexpected recordings' markers (not records: their recordings are counted above), so only entries count.
  const ledgerEntries = (items: TableItem[]) => recordings(items.filter((item) => item.entity === ENTITY.ledgerEntry));
  const [recordingCount, gpsFixes, deviceLogs, ledgerEntryCount] = await Promise.all([
    countCapped(deps, lists(keys.payload.listByDeviceUser(client, deviceUser), (device) => keys.payload.listByDevice(client, device), recordings), cap),
    countCapped(deps, lists(timed(keys.gps.byDeviceUser(client, deviceUser)), (device) => timed(keys.gps.byDevice(client, device)), deviceData), cap),
    countCapped(deps, lists(timed(keys.deviceLog.byDeviceUser(client, deviceUser)), (device) => timed(keys.deviceLog.byDevice(client, device)), deviceData), cap),
    countCapped(deps, lists(keys.ledgerEntry.listByDeviceUser(client, deviceUser), (device) => keys.ledgerEntry.listByDevice(client, device), ledgerEntries), cap),
  ]);
  const visibleDevices = (await grouped(devices.slice(0, cap))).length;
  const deviceCount = devices.length > cap ? { count: cap, capped: true } : { count: visibleDevices, capped: false };
  return { recordings: recordingCount, gps_fixes: gpsFixes, device_logs: deviceLogs, ledger_entries: ledgerEntryCount, devices: deviceCount };
}

/**
 * A portal user's hold: the comments they raised, the receipts they confirmed and their user activity records. The
 * activity trail names a person by reference (the token's subject); comments and receipts by e-mail where the token
 * carried one, so both names are counted.
 */
async function portalUserCoverage(deps: TableDependencies, client: string, reference: string, { viewer, cap }: Counting): Promise<LegalHoldCoverage> {
  const stored = await deps.table.get(keys.portalUser.item(client, reference));
  const email = stored === undefined ? undefined : readPortalUser(stored).email;
  const names = [...new Set([reference, ...(email === undefined ? [] : [email])])];
  // Comments carry their payload's type and group; receipts and activity records carry neither.
  const comments = await countCapped(deps, names.map((name) => ({ list: keys.comment.listByRaiser(client, name), keep: (items: TableItem[]) => viewer.payloads.filter(items) })), cap);
  if (!seesEverything(viewer)) return { comments };
  const [receipts, activityRecords] = await Promise.all([
    countCapped(deps, names.map((name) => ({ list: keys.payload.receiptsBy(client, name) })), cap),
    countCapped(deps, [{ list: keys.userActivity.listByUser(client, reference) }], cap),
  ]);
  return { comments, receipts, activity_records: activityRecords };
}

/** What an active hold covers now, by kind, as far as `viewer` may see it (see the module note). */
export function holdCoverageCounts(deps: TableDependencies, client: string, { target, viewer, cap = COVERAGE_CAP }: CoverageQuestion): Promise<LegalHoldCoverage> {
  const counting = { viewer, cap };
  return target.targetType === 'DeviceUser'
    ? deviceUserCoverage(deps, client, target.target, counting)
    : portalUserCoverage(deps, client, target.target, counting);
}
