import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { AWAITING_ENTRY_INDEXES, awaitingEntryKeys, readAwaitingEntry, type AwaitingEntryItem } from '#core/store/entities/awaiting-entry.ts';
import { readLedgerWatermark } from '#core/store/entities/ledger-entry.ts';
import { onIndex } from '#core/store/key-parts.ts';
import { keys } from '#core/store/keys.ts';
import { counterOperations, unexpectedChanged } from '../reconcile/counter-moves.ts';
import { ledgerTypeOf } from '../reconcile/match.ts';
import { transactCounted } from '../reconcile/transact.ts';

type SweepDeps = Pick<Dependencies, 'table' | 'clock'>;

/** Markers read per Query page. */
const MARKERS_PAGE = 100;

/**
 * How far back the sweep looks for recordings awaiting their entry: a recording whose phone's ledger has not covered
 * its time within this many days after its grace is left awaiting (a later entry still explains it) but no longer
 * read every hour, so a tenant whose phones never send a ledger does not make each run longer than the last.
 */
export const UNEXPECTED_HORIZON_DAYS = 14;

/** The byTenantTime index attributes of a marker: removed once it is Unexpected, so the sweep never reads it again. */
const SWEEP_INDEX_ATTRIBUTES = Object.keys(onIndex[AWAITING_ENTRY_INDEXES.byTenantTime]('', ''));

export interface UnexpectedPage {
  unexpected: number;
  lastKey?: Record<string, string>;
}

/**
 * A marker becomes `Unexpected`: unexpected, unexpected_at, its place in the Unexpected and device-user lists (the
 * entries list), out of the sweep's list, and `unexpected` +1 on its day's counter items, in ONE transaction
 * conditional on it still awaiting (an entry that consumed it meanwhile deleted it; a second run finds it marked).
 */
export async function markUnexpected(deps: SweepDeps, client: string, marker: AwaitingEntryItem): Promise<boolean> {
  const payloadType = ledgerTypeOf(marker.payload_type);
  if (payloadType === undefined) return false;
  const now = deps.clock.now().toISOString();
  const placement = {
    deviceReference: marker.device_reference,
    payloadReference: marker.payload_reference,
    payloadTime: marker.payload_time,
    deviceUserReference: marker.device_user_reference,
  };
  const cuts = { day: marker.day, device_reference: marker.device_reference, device_user_reference: marker.device_user_reference, group: marker.group };
  try {
    await transactCounted(deps, [
      {
        kind: 'update',
        key: awaitingEntryKeys.key(client, marker.device_reference, marker.payload_time, marker.payload_reference),
        update: { set: { unexpected: true, unexpected_at: now, ...awaitingEntryKeys.unexpectedIndexes(client, placement) }, remove: SWEEP_INDEX_ATTRIBUTES },
        condition: { kind: 'expression', expression: '#unexpected = :false', names: { '#unexpected': 'unexpected' }, values: { ':false': false } },
      },
      ...counterOperations(client, [unexpectedChanged(cuts, payloadType, 1)]),
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/**
 * One page of the tenant's recordings awaiting their entry whose time plus the grace has passed (a key range of the
 * tenant's markers by time, from UNEXPECTED_HORIZON_DAYS before). Each is marked Unexpected only once its device's
 * ledger `covered_to` is past its time: the phone has told Verity everything it saw up to then, and this recording
 * is not among it. A phone that never sends a ledger has no `covered_to`, so its recordings are never called
 * Unexpected. The device's watermark is read once per device per page.
 */
export async function unexpectedPage(
  deps: SweepDeps,
  client: string,
  options: { graceHours: number; startKey?: Record<string, string> | undefined },
): Promise<UnexpectedPage> {
  const now = deps.clock.now().getTime();
  const upTo = new Date(now - options.graceHours * 3_600_000);
  const from = new Date(upTo.getTime() - UNEXPECTED_HORIZON_DAYS * 86_400_000);
  const page = await deps.table.query({
    ...keys.awaitingEntry.listByTenant(client),
    sort: { between: [from.toISOString(), upTo.toISOString()] },
    limit: MARKERS_PAGE,
    ...(options.startKey === undefined ? {} : { startKey: options.startKey }),
  });
  const coveredTo = new Map<string, string | undefined>();
  const coverageOf = async (device: string) => {
    if (!coveredTo.has(device)) {
      const item = await deps.table.get(keys.device.key(client, device));
      coveredTo.set(device, item === undefined ? undefined : readLedgerWatermark(item).ledger_covered_to);
    }
    return coveredTo.get(device);
  };
  let unexpected = 0;
  for (const item of page.items) {
    const marker = readAwaitingEntry(item);
    if (marker.unexpected) continue;
    const covered = await coverageOf(marker.device_reference);
    if (covered === undefined || Date.parse(covered) <= Date.parse(marker.payload_time)) continue;
    if (await markUnexpected(deps, client, marker)) unexpected += 1;
  }
  return { unexpected, ...(page.lastKey === undefined ? {} : { lastKey: page.lastKey }) };
}
