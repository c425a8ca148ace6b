import type { LegalHold, LegalHoldCoverage, LegalHoldCoverageCount } from '#shared/contract/entities/account-data.ts';
import { formatNumber } from '../../lib/format.ts';

/**
 * A legal hold in words: what it covers (counted when the holds are listed, capped per kind) and how far its storage
 * locks are, so the list and the release confirmation say the same thing.
 */

/** The kinds a hold can cover, in the order people ask about them, with their singular and plural nouns. */
const KINDS: readonly [keyof LegalHoldCoverage, string, string][] = [
  ['recordings', 'recording', 'recordings'],
  ['gps_fixes', 'GPS fix', 'GPS fixes'],
  ['device_logs', 'device log line', 'device log lines'],
  ['ledger_entries', 'capture ledger entry', 'capture ledger entries'],
  ['devices', 'device', 'devices'],
  ['comments', 'comment', 'comments'],
  ['receipts', 'receipt', 'receipts'],
  ['activity_records', 'activity record', 'activity records'],
];

const countText = (value: LegalHoldCoverageCount, one: string, many: string) =>
  value.capped ? `more than ${formatNumber(value.count)} ${many}` : `${formatNumber(value.count)} ${value.count === 1 ? one : many}`;

/** "12 recordings", "more than 1,000 GPS fixes", … one line per kind the hold's coverage names (none for a released hold). */
export function coverageLines(hold: LegalHold): string[] {
  const coverage = hold.coverage;
  if (coverage === undefined) return [];
  return KINDS.flatMap(([kind, one, many]) => {
    const value = coverage[kind];
    return value === undefined ? [] : [countText(value, one, many)];
  });
}

/** Is the hold's storage lock still being put in step (the list keeps asking until it is not)? */
export const isSyncing = (hold: LegalHold) => hold.sync_state === 'Syncing';

/** Where a device user's hold stands on the recordings' stored objects: progress while syncing, a reason when failed. */
export function syncProgress(hold: LegalHold): { label: string; percent?: number; state: 'syncing' | 'synced' | 'failed' } | undefined {
  if (hold.sync_state === undefined) return undefined;
  const done = hold.objects_synced ?? 0;
  const total = hold.coverage?.recordings;
  const verb = hold.is_active ? 'Locking' : 'Unlocking';
  switch (hold.sync_state) {
    case 'Syncing': {
      const known = total !== undefined && !total.capped && total.count > 0;
      return {
        state: 'syncing',
        label: known ? `${verb} recordings: ${formatNumber(done)} of ${formatNumber(total.count)}` : `${verb} recordings: ${formatNumber(done)} so far`,
        ...(known ? { percent: Math.min(100, Math.round((done / total.count) * 100)) } : {}),
      };
    }
    case 'Failed':
      return { state: 'failed', label: `Stopped after ${formatNumber(done)} recordings${hold.sync_error ? `: ${hold.sync_error}` : ''}. Place or release the hold again to resume.` };
    default:
      return { state: 'synced', label: hold.is_active ? 'Recordings locked' : 'Recordings unlocked' };
  }
}
