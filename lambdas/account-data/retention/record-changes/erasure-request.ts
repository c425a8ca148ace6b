import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { markDeleted, type RecordChanges } from './shared.ts';

/** The states an erasure request ends in: erased and reported, rejected by its reviewer, or given up by the job sweep. */
const ENDED_STATES: ReadonlySet<string> = new Set(['Completed', 'Rejected', 'Failed']);

/**
 * An erasure request (lambdas/account-data/erasure), under ErasureRequestData: once it has ended it is the firm's
 * evidence of how it answered the person, kept for its period counted from its end (`completed_at`). A request still
 * recorded, deciding, awaiting review or erasing is never due. Deleted marks it (out of the list and reads); Destroyed
 * removes the item, the disposal record keeping its reference and checksum.
 */
export function erasureRequestEnded(request: RetainedItemOf<'ErasureRequest'>): boolean {
  return ENDED_STATES.has(request.erasure_state) && request.completed_at !== undefined;
}

export const erasureRequestChanges: RecordChanges = {
  ended: (item) => erasureRequestEnded(readRetainedAs('ErasureRequest', item)),
  change: (_deps, _client, item, { action, condition, disposal }) =>
    action === 'Deleted' ? [markDeleted(item, condition, disposal)] : [{ kind: 'delete', key: { pk: item.pk, sk: item.sk }, condition }],
};
