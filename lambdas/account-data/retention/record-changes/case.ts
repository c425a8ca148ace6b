import type { QuerySpec, TransactOperation } from '#core/ports/table-store.ts';
import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { SUPPORT_SEAT } from '#core/store/entities/case.ts';
import { keys } from '#core/store/keys.ts';
import { productionKeys } from '#core/store/entities/production.ts';
import { alsoWhen, markDeleted, markDestroyed, type RecordChanges } from './shared.ts';

/**
 * CaseData: a closed case (lambdas/cases) and its production log (the productions of the case, each the record of
 * what was handed over, when, by whom, to whom, with which control numbers). It counts from the closing (`closed_at`);
 * an Open case has not ended and is never due.
 *
 * A legal hold on a custodian does not keep the case: the hold covers the held person's data (their recordings, fixes,
 * logs, what they wrote), and the case is the firm's record of a matter, not the person's data. It follows its own
 * period, as a transfer run or a supervision review item naming a held person's recordings does not wait for the hold
 * (legal-holds/coverage.ts does not name cases). What the case produced stays covered where it lives: the recordings
 * under the person's hold. A closed case whose own hold is still Active on it (its closing's release did not finish:
 * closing it again finishes it) is kept ('active') until that release is done, so the case that placed a hold is never
 * gone while it can still release it.
 *
 * Deleted marks the case (conditional on it being still Closed): it and its productions leave every read, list and
 * count (lambdas/cases/case-access.ts reads a deleted case as absent), restorable by removing the mark. Destroyed marks
 * it Destroyed in the disposal's transaction with its seats and its control-number counter removed; its productions
 * (and the packages delivered as downloads) then go a page at a time and the case item last (bulk-purge.ts): a case's
 * productions have no bound, so they cannot be one transaction.
 */
export function caseEnded(stored: RetainedItemOf<'Case'>): boolean {
  return stored.state === 'Closed' && stored.closed_at !== undefined;
}

/** The case's productions (its production log), on the productions' by-case index. */
export function caseParts(client: string, caseReference: string): QuerySpec {
  return productionKeys.listByCase(client, caseReference);
}

const STILL_CLOSED = { expression: '#case_state = :closed', names: { '#case_state': 'state' }, values: { ':closed': 'Closed' } };

export const caseChanges: RecordChanges = {
  ended: (item) => caseEnded(readRetainedAs('Case', item)),
  refusal: async (_deps, _client, item) => ((readRetainedAs('Case', item).holds ?? []).some((hold) => hold.state === 'Active') ? 'active' : undefined),
  change: (_deps, client, item, { action, condition, disposal }) => {
    const closed = alsoWhen(condition, STILL_CLOSED);
    if (action === 'Deleted') return [markDeleted(item, closed, disposal)];
    const stored = readRetainedAs('Case', item);
    // The seats (at most the team's 50 and support mode's) and the counter go with the case in its transaction.
    const seats = [...(stored.team ?? []), ...(stored.support_may_view === true ? [SUPPORT_SEAT] : [])];
    const removals: TransactOperation[] = [
      ...seats.map((seat): TransactOperation => ({ kind: 'delete', key: keys.case.seatKey(client, seat, stored.case_ref) })),
      { kind: 'delete', key: productionKeys.controlCounter(client, stored.case_ref) },
    ];
    return [markDestroyed(item, closed, disposal), ...removals];
  },
};
