import { readAwaitingEntry } from '#core/store/entities/awaiting-entry.ts';
import { readAll } from '#core/store/paging.ts';
import type { LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { matchEntry, type ReconcileDependencies } from '../reconcile/at-processing.ts';
import { chooseRecording, matchWindow } from '../reconcile/match.ts';
import { raisePendingGapAlert } from '../reconcile/pending-gap-alert.ts';
import { entryFactsOf, recordingOfMarker } from '../reconcile/recording-facts.ts';

/**
 * The sweep's last try for a Pending entry past its grace: a recording of its device awaiting its entry near its
 * start time (one consistent Query of the device's markers in the match window), matched with processing's own write
 * (the entry's outcome and recording, the marker consumed, the counts moved: one transaction conditional on the entry
 * still being Pending). A race between intake and processing can leave both unmatched; this settles it. False when
 * no marker matches, or the entry was taken meanwhile (the caller's Missing move is then refused by its own condition).
 */
export async function matchAwaitingRecording(deps: ReconcileDependencies, client: string, entry: LedgerEntryItem): Promise<boolean> {
  const list = keys.awaitingEntry.listByDevice(client, entry.device_reference);
  // Twice: a marker marked Unexpected by an overlapping run between the read and the write is read again as it is now.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const markers = (await readAll(deps.table, { ...list, sort: matchWindow(entry.start_time), consistent: true })).map(readAwaitingEntry);
    const chosen = chooseRecording(entryFactsOf(entry), markers.map(recordingOfMarker));
    if (chosen === undefined) return false;
    try {
      await raisePendingGapAlert(deps, client, await matchEntry(deps, client, entry, chosen));
      return true;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  return false;
}
