import { readRetainedAs, type RetainedItemOf } from '#core/store/entities/retained-item.ts';
import { alsoWhen, markDeleted, type RecordChanges } from './shared.ts';
import { removeRecordVersions } from './version-removals.ts';

/**
 * LegalHoldData: a hold's record (who was held, placed when, by whom, released when). Only a released hold ends, and
 * it counts from its release (`updated_at` of the release; releasing it again stamps it again and moves its marker
 * on). An active hold is never due, nor a released one whose walk over the recordings' objects has not finished
 * (`sync_state` Syncing or Failed): the walk writes its progress on the hold item, and the objects it has not reached
 * still carry the hold. Placing the hold again makes it live (its marker goes). Deleted marks the item; Destroyed
 * removes it, and the versions its placings and releases kept go with it (version-removals.ts).
 */
export function legalHoldEnded(hold: RetainedItemOf<'LegalHold'>): boolean {
  return hold.is_active === false && hold.sync_state !== 'Syncing' && hold.sync_state !== 'Failed' && hold.updated_at !== undefined;
}

export const legalHoldChanges: RecordChanges = {
  ended: (item) => legalHoldEnded(readRetainedAs('LegalHold', item)),
  change: async (deps, _client, item, { action, condition, disposal }) => {
    // Placing the hold again rewrites the whole item (without retention_state), so the state alone does not show it:
    // the hold must still be the released one read.
    const released = alsoWhen(condition, {
      expression: '#active = :released AND #released_at = :released_at',
      names: { '#active': 'is_active', '#released_at': 'updated_at' },
      values: { ':released': false, ':released_at': readRetainedAs('LegalHold', item).updated_at },
    });
    if (action === 'Deleted') return [markDeleted(item, released, disposal)];
    await removeRecordVersions(deps, item, released);
    return [{ kind: 'delete', key: { pk: item.pk, sk: item.sk }, condition: released }];
  },
};
