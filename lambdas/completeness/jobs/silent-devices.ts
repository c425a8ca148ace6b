import * as z from 'zod';
import type { Dependencies } from '#core/dependencies.ts';
import { onFirstUse } from '#core/on-first-use.ts';
import { readDeviceLastSeen } from '#core/store/entities/device.ts';
import { readLedgerWatermark } from '#core/store/entities/ledger-entry.ts';
import { readItem } from '#core/store/entities/read-item.ts';
import { keys } from '#core/store/keys.ts';
import type { QueryPage } from '#core/ports/table-store.ts';
import { raiseSilentDeviceAlert } from '../alerts/gap-alerts.ts';

type SilentDeps = Pick<Dependencies, 'table' | 'clock'>;

/** Only what the check reads of a device and of its latest telemetry: a part it does not need never fails it. */
const activeSchema = /* @__PURE__ */ onFirstUse(() => z.object({ device_reference: z.string(), is_deactivated: z.boolean().default(false) }));
const receivedSchema = /* @__PURE__ */ onFirstUse(() => z.object({ device_reference: z.string(), received_at: z.string() }));

/** Active devices per page: one Query page, then one BatchGet of their items and latest telemetry. */
const DEVICES_PAGE = 100;

/** What one page of the silent check did; `lastKey` when the tenant's active devices go on. */
export interface SilentPage {
  silent: number;
  lastKey?: Record<string, string>;
}

/**
 * One page of the tenant's silent-device check. The active devices are the last-seen index (deactivation.ts keeps
 * exactly the active ones there): a Query, never a Scan. For each, the device item (its ledger watermark) and its latest
 * telemetry are read in one BatchGet; a device heard from (ledger report or telemetry) but by neither since
 * `now - silentHours` raises its silent alert (once per silence, gap-alerts.ts). A device never heard from raises
 * nothing: an app that sends neither is not installed yet, not silent.
 *
 * Decision: the whole active list, not only the devices last seen before the threshold: any contact moves last_seen
 * (authentication, a recording, a log line), so a phone that uploads recordings but no ledger or telemetry would
 * never be a candidate by last_seen, and it is exactly the phone whose completeness cannot be judged.
 */
export async function silentDevicesPage(deps: SilentDeps, client: string, silentHours: number, startKey?: Record<string, string>): Promise<SilentPage> {
  const threshold = new Date(deps.clock.now().getTime() - silentHours * 3_600_000).toISOString();
  const page: QueryPage = await deps.table.query({ ...keys.device.listByLastSeen(client), limit: DEVICES_PAGE, ...(startKey === undefined ? {} : { startKey }) });
  const references = page.items.map((item) => readDeviceLastSeen(item).device_reference);
  const read = await deps.table.batchGet(references.flatMap((reference) => [keys.device.key(client, reference), keys.telemetry.latest(client, reference)]));
  const isDevice = (sk: string) => sk === keys.device.key(client, '-').sk;
  const devices = new Map(read.filter((item) => isDevice(item.sk)).map((item) => [readItem('Device', activeSchema(), item).device_reference, item]));
  const telemetry = new Map(
    read.filter((item) => !isDevice(item.sk)).map((item) => {
      const latest = readItem('DeviceTelemetry', receivedSchema(), item);
      return [latest.device_reference, latest.received_at];
    }),
  );
  let silent = 0;
  for (const reference of references) {
    const item = devices.get(reference);
    if (item === undefined || readItem('Device', activeSchema(), item).is_deactivated) continue;
    const lastLedgerAt = readLedgerWatermark(item).ledger_reported_at;
    const lastTelemetryAt = telemetry.get(reference);
    if (lastLedgerAt === undefined && lastTelemetryAt === undefined) continue;
    if ((lastLedgerAt ?? '') >= threshold || (lastTelemetryAt ?? '') >= threshold) continue;
    const raised = await raiseSilentDeviceAlert(deps, client, { deviceReference: reference, lastLedgerAt, lastTelemetryAt, silentHours });
    if (raised !== undefined) silent += 1;
  }
  return { silent, ...(page.lastKey === undefined ? {} : { lastKey: page.lastKey }) };
}
