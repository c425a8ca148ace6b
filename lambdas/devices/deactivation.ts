import type { Dependencies } from '../core/dependencies.ts';
import { ConflictError, NotFoundError } from '../core/errors.ts';
import { ConditionFailedError, type TransactOperation } from '../core/ports/table-store.ts';
import { dashboardCounterOperations, deviceCounterChanges } from '../metrics/public.ts';
import { deviceGroupStatsOperations } from '../metrics/public.ts';
import { readDevice, readDeviceLastSeen, type DeviceItem } from '../core/store/entities/device.ts';
import { keys } from '../core/store/keys.ts';
import { allClients } from '../core/store/all-clients.ts';
import { eachPage } from '../core/store/paging.ts';
import { unchangedItem } from '../core/store/unchanged-item.ts';
import { jobActor } from '../core/auth/actor.ts';
import { versionWrites, type VersionWriter } from '../audit/public.ts';

/**
 * Deactivating a device: the admin DELETE (lambdas/devices/device-service.ts) and the inactivity job below write the
 * same transaction, so the dashboard, group stats and last-seen index cannot disagree whichever path ran.
 */

type Deps = Pick<Dependencies, 'table' | 'clock'>;

export interface DeactivationOptions {
  /** Recorded as `updated_by`. */
  actor: string;
  /**
   * Who keeps the device as it was, as a version under the chain: the admin call (its open activity record), or the
   * inactivity job with its own activity record of the deactivation.
   */
  writer: VersionWriter;
  /** The job's threshold (ISO): deactivate only if last_seen is still before it when the device is read. */
  lastSeenBefore?: string;
}

export type DeactivationOutcome =
  /** Deactivated now. */
  | { outcome: 'deactivated'; device: DeviceItem }
  /** Was deactivated already: nothing written. */
  | { outcome: 'already'; device: DeviceItem }
  /** The job's candidate was seen again since the index said otherwise: nothing written. */
  | { outcome: 'seen'; device: DeviceItem };

/**
 * One transaction: the device (is_deactivated, deactivation_date, updated_at/by; conditional on the item read being
 * unchanged and not deactivated), its dashboard counters, the group's `actual_devices` and per-service `active_devices` (−1,
 * skipped when the group is gone or a counter is already 0 rather than failing: stats must never block a deactivation), and the removal of its
 * last-seen index item. A lost race re-reads and tries again (twice), then 409.
 */
export async function deactivateDeviceItem(deps: Deps, client: string, reference: string, options: DeactivationOptions): Promise<DeactivationOutcome> {
  const key = keys.device.key(client, reference);
  for (let attempt = 0; ; attempt += 1) {
    const stored = await deps.table.get(key, { consistent: true });
    if (stored === undefined) throw new NotFoundError('Device not found');
    const before = readDevice(stored);
    if (before.is_deactivated) return { outcome: 'already', device: before };
    if (options.lastSeenBefore !== undefined && before.last_seen !== undefined && before.last_seen >= options.lastSeenBefore) {
      return { outcome: 'seen', device: before };
    }
    const now = deps.clock.now().toISOString();
    const set = { is_deactivated: true, deactivation_date: now, updated_at: now, updated_by: options.actor };
    // The device as it was is kept as a version (docs/compliance.md): the write then holds only while the item is
    // exactly the one read, so the version is what it replaced (an upload moving last_seen meanwhile is a retry).
    const operations: TransactOperation[] = [
      {
        kind: 'update',
        key,
        update: { set },
        condition: unchangedItem(stored, DEACTIVATION_ATTRIBUTES),
      },
      ...versionWrites(options.writer, [{ entity: 'device-assignment', reference, stored, change: 'updated' }]),
      ...dashboardCounterOperations(client, deviceCounterChanges(before, { ...before, is_deactivated: true })),
      { kind: 'delete', key: keys.device.lastSeenKey(client, reference) },
    ];
    operations.push(...(await deviceGroupStatsOperations(deps, client, before, { ...before, is_deactivated: true })));
    try {
      await deps.table.transactWrite(operations);
      return { outcome: 'deactivated', device: { ...before, ...set } };
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (attempt >= 2) throw new ConflictError('Device changed meanwhile, try again');
    }
  }
}

/** Attributes a device may gain that the item read lacked (each must still be absent for the version to be exact). */
const DEACTIVATION_ATTRIBUTES = ['is_deactivated', 'deactivation_date', 'updated_at', 'updated_by', 'last_seen', 'device_user_reference', 'group', 'retention_state'];

/** The inactivity job, as it names itself on the device and in its activity records. */
const DEACTIVATION_JOB = jobActor('device-deactivation');

/** The job's own activity record of one deactivation: it carries the digest of the device's version. */
function jobDeactivationWriter(deps: Deps, client: string, reference: string): VersionWriter {
  const entry = {
    user_id: DEACTIVATION_JOB.reference,
    actor: DEACTIVATION_JOB,
    roles: [],
    action: 'devices:Deactivate',
    is_allowed: true,
    activity_time: deps.clock.now().toISOString(),
    parameters: { device_reference: reference },
    is_client_app: false,
  };
  return { deps, principal: undefined, actor: DEACTIVATION_JOB, record: { trail: 'user', client, entry, requestId: `${DEACTIVATION_JOB.reference}:${reference}` } };
}

/** What one run of the inactivity job did. */
export interface InactivityReport {
  clients: number;
  threshold: string;
  deactivated: number;
  seen: number;
  failed: number;
}

/** Page size of the job's Queries. */
const JOB_PAGE = 200;

/**
 * The inactivity job: every client (`keys.account.listAll()`), then that client's active devices last seen before
 * now − `inactivityDays` (a key range on the last-seen index, `keys.device.listByLastSeen`: no Scan, and only
 * candidates are read). Each is deactivated with the same transaction as the admin DELETE, re-checking last_seen on
 * the item itself (the index is eventually consistent). One device failing is logged and counted, not fatal.
 */
export async function deactivateInactiveDevices(
  deps: Pick<Dependencies, 'table' | 'clock' | 'logger'>,
  inactivityDays: number,
): Promise<InactivityReport> {
  const threshold = new Date(deps.clock.now().getTime() - inactivityDays * 86_400_000).toISOString();
  const report: InactivityReport = { clients: 0, threshold, deactivated: 0, seen: 0, failed: 0 };
  for await (const client of allClients(deps.table)) {
    report.clients += 1;
    // Keys are `<last_seen ISO>#<reference>`: everything below the threshold text was seen before it.
    const candidates = { ...keys.device.listByLastSeen(client), sort: { between: ['0', threshold] as [string, string] } };
    for await (const page of eachPage(deps.table, candidates, JOB_PAGE)) {
      for (const candidate of page) {
        let reference: string | undefined;
        try {
          reference = readDeviceLastSeen(candidate).device_reference;
          const writer = jobDeactivationWriter(deps, client, reference);
          const result = await deactivateDeviceItem(deps, client, reference, { actor: DEACTIVATION_JOB.reference, writer, lastSeenBefore: threshold });
          if (result.outcome === 'deactivated') report.deactivated += 1;
          if (result.outcome === 'seen') report.seen += 1;
        } catch (error) {
          report.failed += 1;
          deps.logger.warn('device deactivation failed', { client, device_reference: reference, error: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  }
  return report;
}
