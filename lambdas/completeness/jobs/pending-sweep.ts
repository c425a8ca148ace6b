import type { Dependencies } from '#core/dependencies.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import { ledgerEntryKeys, readLedgerEntry, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { keys } from '#core/store/keys.ts';
import { counterOperations, outcomeChanged } from '../reconcile/counter-moves.ts';
import { raisePendingGapAlert } from '../reconcile/pending-gap-alert.ts';
import { transactCounted } from '../reconcile/transact.ts';

type SweepDeps = Pick<Dependencies, 'table' | 'clock'>;

/** Pending entries read per Query page. */
const PENDING_PAGE = 100;

/** What one page of the Pending sweep did; `lastKey` when the tenant's Pending entries in range go on. */
export interface PendingPage {
  movedMissing: number;
  matchedLate: number;
  lastKey?: Record<string, string>;
}

/**
 * Tries once more to match a Pending entry to a recording awaiting its entry (a race between intake and processing
 * can leave both unmatched): true when it was matched (and counted) now. Given by the caller: the matching write is
 * intake's (lambdas/completeness/ledger), not repeated here.
 */
export type MatchAwaiting = (deps: SweepDeps, client: string, entry: LedgerEntryItem) => Promise<boolean>;

/**
 * `Pending` → `Missing` for one entry past its `due_at`: the entry (outcome, outcome_at, its place in the by-outcome
 * index, and `alert_pending` until its gap alert is raised) and its counter moves (pending −1, missing +1 on the same
 * items it was first counted on) in ONE transaction conditional on it still being Pending, so a recording matched
 * meanwhile, a retried run or a second sweep never moves or counts it twice. The entry as moved, or undefined when it
 * was no longer Pending.
 */
export async function markMissing(deps: SweepDeps, client: string, entry: LedgerEntryItem): Promise<LedgerEntryItem | undefined> {
  const now = deps.clock.now().toISOString();
  const placement = { deviceReference: entry.device_reference, entryId: entry.entry_id, startTime: entry.start_time };
  const cuts = { day: entry.day, device_reference: entry.device_reference, device_user_reference: entry.device_user_reference, group: entry.group };
  try {
    await transactCounted(deps, [
      {
        kind: 'update',
        key: keys.ledgerEntry.key(client, entry.device_reference, entry.entry_id),
        update: { set: { outcome: 'Missing', outcome_at: now, alert_pending: true, ...ledgerEntryKeys.outcomeIndex(client, { ...placement, outcome: 'Missing' }) } },
        condition: { kind: 'expression', expression: '#outcome = :pending', names: { '#outcome': 'outcome' }, values: { ':pending': 'Pending' } },
      },
      ...counterOperations(client, [outcomeChanged(cuts, entry.payload_type, 'Pending', 'Missing')]),
    ]);
    return { ...entry, outcome: 'Missing', outcome_at: now, alert_pending: true };
  } catch (error) {
    if (error instanceof ConditionFailedError) return undefined;
    throw error;
  }
}

/**
 * One page of the tenant's Pending entries that started before `now - graceHours` (a key range of the by-outcome
 * index: the partition holds only entries still Pending, so the read is the backlog, never history). Each past its own
 * `due_at` (kept from intake, so an entry keeps the grace it was given) is first offered to `matchAwaiting`; else it
 * goes `Missing` and raises its device's gap alert for the day (flagged in the move, cleared once raised: a run that
 * dies between the two leaves the flag, and `unalertedPage` of a later run raises it).
 */
export async function pendingPage(
  deps: SweepDeps,
  client: string,
  options: { graceHours: number; matchAwaiting: MatchAwaiting; startKey?: Record<string, string> | undefined },
): Promise<PendingPage> {
  const now = deps.clock.now();
  const upTo = new Date(now.getTime() - options.graceHours * 3_600_000).toISOString();
  const page = await deps.table.query({
    ...keys.ledgerEntry.listByOutcome(client, 'Pending'),
    // `upTo` itself sorts before `upTo#<reference>`: the range holds the entries that started before it.
    sort: { between: ['0', upTo] },
    limit: PENDING_PAGE,
    ...(options.startKey === undefined ? {} : { startKey: options.startKey }),
  });
  const result: PendingPage = { movedMissing: 0, matchedLate: 0, ...(page.lastKey === undefined ? {} : { lastKey: page.lastKey }) };
  for (const item of page.items) {
    const entry = readLedgerEntry(item);
    if (entry.outcome !== 'Pending' || entry.due_at > now.toISOString()) continue;
    if (await options.matchAwaiting(deps, client, entry)) {
      result.matchedLate += 1;
      continue;
    }
    const missing = await markMissing(deps, client, entry);
    if (missing === undefined) continue;
    result.movedMissing += 1;
    await raisePendingGapAlert(deps, client, missing);
  }
  return result;
}

/**
 * How far back a run looks for Missing entries whose gap alert a failed run left unraised: the sweep moves entries
 * that started before now − grace, so a run that died is followed by the next within the hour; two days also covers
 * a sweep stopped for a day.
 */
export const UNALERTED_LOOKBACK_HOURS = 48;

/**
 * One page of the tenant's Missing entries that started in the lookback before `now - graceHours` (a key range of the
 * by-outcome index): those still flagged `alert_pending` raise their gap alert now (at least once, never lost).
 */
export async function unalertedPage(
  deps: SweepDeps,
  client: string,
  options: { graceHours: number; startKey?: Record<string, string> | undefined },
): Promise<{ raised: number; lastKey?: Record<string, string> }> {
  const upTo = deps.clock.now().getTime() - options.graceHours * 3_600_000;
  const from = new Date(upTo - UNALERTED_LOOKBACK_HOURS * 3_600_000).toISOString();
  const page = await deps.table.query({
    ...keys.ledgerEntry.listByOutcome(client, 'Missing'),
    sort: { between: [from, new Date(upTo).toISOString()] },
    limit: PENDING_PAGE,
    ...(options.startKey === undefined ? {} : { startKey: options.startKey }),
  });
  let raised = 0;
  for (const entry of page.items.map(readLedgerEntry)) {
    if (entry.alert_pending !== true) continue;
    await raisePendingGapAlert(deps, client, entry);
    raised += 1;
  }
  return { raised, ...(page.lastKey === undefined ? {} : { lastKey: page.lastKey }) };
}
