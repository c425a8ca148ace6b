import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import type { LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { keys } from '#core/store/keys.ts';
import { raiseGapAlert } from '../alerts/gap-alerts.ts';

/**
 * Raises the gap alert of a Short or Missing entry whose write flagged it (`alert_pending`), then clears the flag
 * (a conditional REMOVE). The flag is written in the same transaction as the outcome, so a run that fails before the
 * alert is raised leaves it set and its retry raises it: at least once, never lost. A failure propagates.
 */
export async function raisePendingGapAlert(deps: Pick<Dependencies, 'table' | 'clock'>, client: string, entry: LedgerEntryItem): Promise<void> {
  if (entry.alert_pending !== true || (entry.outcome !== 'Short' && entry.outcome !== 'Missing')) return;
  await raiseGapAlert(deps, client, {
    deviceReference: entry.device_reference,
    day: entry.day,
    outcome: entry.outcome,
    entry: {
      entry_id: entry.entry_id,
      payload_type: entry.payload_type,
      direction: entry.direction,
      start_time: entry.start_time,
      phone_number: entry.phone_number,
      duration: entry.duration,
      recording_duration: entry.recording_duration,
      is_intermittent: entry.is_intermittent,
      device_user_reference: entry.device_user_reference,
    },
  });
  try {
    await deps.table.update(
      keys.ledgerEntry.key(client, entry.device_reference, entry.entry_id),
      { remove: ['alert_pending'] },
      { condition: { kind: 'expression', expression: '#a = :t', names: { '#a': 'alert_pending' }, values: { ':t': true } } },
    );
  } catch (error) {
    // Another run raised and cleared it first.
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}
