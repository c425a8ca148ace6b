import type { Dependencies } from '#core/dependencies.ts';
import { readAll } from '#core/store/paging.ts';
import { ConditionFailedError, type TransactOperation } from '#core/ports/table-store.ts';
import { awaitingEntryToItem, readAwaitingEntry } from '#core/store/entities/awaiting-entry.ts';
import { readLedgerEntry, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import { keys } from '#core/store/keys.ts';
import { counterOperations, outcomeChanged, unexpectedChanged, type CountMove } from './counter-moves.ts';
import { chooseEntry, ledgerTypeOf, matchWindow } from './match.ts';
import { outcomeOfMatch } from './outcome.ts';
import { raisePendingGapAlert } from './pending-gap-alert.ts';
import { capturedFields, entryFactsOf, markerOf, reconciledRecordingOf, type ReconciledRecording } from './recording-facts.ts';
import { transactCounted } from './transact.ts';

export type ReconcileDependencies = Pick<Dependencies, 'table' | 'clock'>;

/** How reconciling a processed recording ended. */
export type ReconcileOutcome = 'not-in-ledger' | 'matched' | 'awaiting';

/** Tries at a match that a concurrent write (intake, the sweep, another recording) took first. */
const MATCH_ATTEMPTS = 4;

/** The device's ledger entries within the match window of the recording's time (one Query on the device's time index). */
async function entriesNear(deps: ReconcileDependencies, client: string, recording: ReconciledRecording): Promise<LedgerEntryItem[]> {
  const list = keys.ledgerEntry.listByDevice(client, recording.device_reference);
  return (await readAll(deps.table, { ...list, sort: matchWindow(recording.payload_time) })).map(readLedgerEntry);
}

const unmatched = (entry: LedgerEntryItem) => (entry.outcome === 'Pending' || entry.outcome === 'Missing') && entry.payload_reference === undefined;

/**
 * Capture completeness at processing (called beside superviseProcessed, before the recording is marked Processed):
 * a Call, AbortedCall, SMS, MMS or RCS recording looks for the ledger entry it captured among its device's entries
 * near its time (docs/completeness.md, "Reconciliation"). Found: the entry takes its outcome and the recording, and the
 * counts move, in one transaction conditional on the entry's outcome as read and on no recording having taken it (a
 * Short outcome raises the gap alert). Not found: the recording waits for its entry as an awaiting-entry marker.
 *
 * A run again for the same recording changes nothing: the entry it matched names it, and its marker is put only if
 * absent. When a previous run left a marker and an entry has since arrived, the match consumes the marker (and takes
 * back its Unexpected count), so a recording never explains two things. Nothing best-effort: a failure throws and
 * processing retries.
 */
export async function reconcileProcessed(deps: ReconcileDependencies, client: string, payload: PayloadItem, meta: Record<string, unknown>): Promise<ReconcileOutcome> {
  if (ledgerTypeOf(payload.payload_type) === undefined) return 'not-in-ledger';
  const recording = reconciledRecordingOf(payload, meta);
  if (recording === undefined) return 'not-in-ledger';
  for (let attempt = 0; attempt < MATCH_ATTEMPTS; attempt += 1) {
    const near = await entriesNear(deps, client, recording);
    const already = near.find((entry) => entry.payload_reference === recording.payload_reference);
    if (already !== undefined) {
      await raisePendingGapAlert(deps, client, already);
      return 'matched';
    }
    const chosen = chooseEntry(recording, near.filter(unmatched).map((entry) => ({ ...entryFactsOf(entry), entry })));
    if (chosen === undefined) {
      await leaveMarker(deps, client, recording);
      return 'awaiting';
    }
    try {
      const matched = await matchEntry(deps, client, chosen.entry, recording);
      await raisePendingGapAlert(deps, client, matched);
      return 'matched';
    } catch (error) {
      // The entry was taken or moved meanwhile (the index read may lag a write): read again.
      if (!(error instanceof ConditionFailedError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
  }
  throw new Error(`Recording ${recording.payload_reference} did not settle against its device's ledger`);
}

async function leaveMarker(deps: ReconcileDependencies, client: string, recording: ReconciledRecording): Promise<void> {
  const marker = markerOf(recording, deps.clock.now().toISOString());
  try {
    await deps.table.put(awaitingEntryToItem(client, marker), { condition: { kind: 'item-not-exists' } });
  } catch (error) {
    // A previous run left it (possibly marked Unexpected since): it stays as it is.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/**
 * The entry matched to the recording, the recording's marker (when one waits) consumed with its Unexpected count taken
 * back, the counts moved: one transaction, conditional on the entry's outcome as read and on no recording having taken
 * it (ConditionFailedError otherwise). Returns the entry as written; the caller raises its gap alert
 * (raisePendingGapAlert) once the write is done. Processing and the sweep's late match both write through it.
 */
export async function matchEntry(deps: ReconcileDependencies, client: string, entry: LedgerEntryItem, recording: ReconciledRecording): Promise<LedgerEntryItem> {
  const now = deps.clock.now().toISOString();
  const outcome = outcomeOfMatch(entry, recording);
  const matched: LedgerEntryItem = { ...entry, ...capturedFields(recording), outcome, outcome_at: now, ...(outcome === 'Short' ? { alert_pending: true } : {}) };
  const markerKey = keys.awaitingEntry.key(client, recording.device_reference, recording.payload_time, recording.payload_reference);
  const storedMarker = await deps.table.get(markerKey, { consistent: true });
  const marker = storedMarker === undefined ? undefined : readAwaitingEntry(storedMarker);
  const moves: CountMove[] = [outcomeChanged(entry, entry.payload_type, entry.outcome, outcome)];
  if (marker?.unexpected === true) moves.push(unexpectedChanged(marker, entry.payload_type, -1));
  const operations: TransactOperation[] = [
    {
      kind: 'update',
      key: keys.ledgerEntry.key(client, entry.device_reference, entry.entry_id),
      update: {
        set: {
          ...capturedFields(recording),
          outcome,
          outcome_at: now,
          ...keys.ledgerEntry.outcomeIndex(client, { deviceReference: entry.device_reference, entryId: entry.entry_id, startTime: entry.start_time, outcome }),
          ...(outcome === 'Short' ? { alert_pending: true } : {}),
        },
      },
      condition: {
        kind: 'expression',
        expression: '#o = :o AND attribute_not_exists(#p)',
        names: { '#o': 'outcome', '#p': 'payload_reference' },
        values: { ':o': entry.outcome },
      },
    },
    ...(marker === undefined
      ? []
      : [
          {
            kind: 'delete' as const,
            key: markerKey,
            condition: { kind: 'expression' as const, expression: '#u = :u', names: { '#u': 'unexpected' }, values: { ':u': marker.unexpected } },
          },
        ]),
    ...counterOperations(client, moves),
  ];
  await transactCounted(deps, operations);
  return matched;
}
