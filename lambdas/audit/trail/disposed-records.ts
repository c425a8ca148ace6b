import type { ItemKey, TableItem } from '../../core/ports/table-store.ts';
import { readAuditRecordMarks } from '../../core/store/entities/audit-chain.ts';
import { claimedDisposal, type DisposalItem } from '../../core/store/entities/disposal.ts';
import { keys, type ActivityTrail } from '../../core/store/keys.ts';
import { entryHash } from './activity-chain.ts';

/**
 * Activity records disposed of by retention, as the chain sees them (docs/decisions.md "Audit trail", "Records
 * retention disposes of"). A linked record is never removed from under its link: deletion marks it (`retention_state` Deleted,
 * `deleted_at`, `disposal_id`: bookkeeping outside the entry hash), and destruction replaces it by a stub in the same
 * place that keeps what the chain needs (log id, activity time, sequence, the entry hash its link holds) and names
 * its disposal record, whose checksum is that same entry hash. The verifier then accepts a link whose record is a stub
 * or a mark backed by a disposal record of that record, and still reports a record removed (or stubbed) without one.
 */

/** The record type of each trail in the retention policy (the disposal record's `record_type`). */
export const TRAIL_RECORD_TYPE = { user: 'UserActivityData', device: 'DeviceActivityData' } as const satisfies Record<ActivityTrail, string>;

/** What a destroyed record's stub holds, and nothing else. */
const STUB_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'entity',
  'client',
  'log_id',
  'activity_time',
  'chain_state',
  'sequence',
  'entry_hash',
  'retention_state',
  'destroyed_at',
  'disposal_id',
]);

/** The stub that takes a linked record's place when retention destroys it (its content, index keys and all, go). */
export function destroyedRecordStub(item: TableItem, disposal: Pick<DisposalItem, 'disposal_id' | 'disposed_at'>): TableItem {
  const marks = readAuditRecordMarks(item);
  return {
    pk: item.pk,
    sk: item.sk,
    entity: item.entity,
    client: marks.client,
    log_id: marks.log_id,
    ...(marks.activity_time === undefined ? {} : { activity_time: marks.activity_time }),
    chain_state: 'linked',
    sequence: marks.sequence,
    entry_hash: entryHash(item),
    retention_state: 'Destroyed',
    destroyed_at: disposal.disposed_at,
    disposal_id: disposal.disposal_id,
  };
}

/** Whether a stored record says retention disposed of it (deleted or destroyed). */
export const isDisposed = (record: TableItem): boolean => readAuditRecordMarks(record).retention_state !== undefined;

/** The disposal record a disposed record names (its time is `deleted_at` or `destroyed_at`), or undefined. */
export function disposalKeyOf(client: string, record: TableItem): ItemKey | undefined {
  const marks = readAuditRecordMarks(record);
  const at = marks.retention_state === 'Destroyed' ? marks.destroyed_at : marks.deleted_at;
  if (at === undefined || marks.disposal_id === undefined) return undefined;
  const { pk, sk } = keys.disposal.item(client, at, marks.disposal_id);
  return { pk, sk };
}

const DAY_MS = 86_400_000;

/**
 * Why a disposed record does not stand as a lawful disposal of what its link names, or undefined when it does: the
 * disposal record it names exists, is of this trail's record type and this record, did what the record says (Deleted,
 * Destroyed), holds the link's entry hash as its checksum, and counted its period from the record's own time to no
 * later than it acted. A stub must also hold the link's entry hash and nothing but what a stub keeps.
 */
export function disposalProblem(trail: ActivityTrail, record: TableItem, linkedEntryHash: string, disposalItem: TableItem | undefined): { missing: boolean; detail: string } | undefined {
  const marks = readAuditRecordMarks(record);
  const state = marks.retention_state;
  if (state !== 'Deleted' && state !== 'Destroyed') return { missing: false, detail: `says retention left it ${String(state).slice(0, 20)}` };
  if (state === 'Destroyed') {
    if (marks.entry_hash !== linkedEntryHash) return { missing: false, detail: 'is a stub of other content than its link names' };
    const extra = Object.keys(record).find((attribute) => !STUB_ATTRIBUTES.has(attribute));
    if (extra !== undefined) return { missing: false, detail: `is a stub that holds ${extra.slice(0, 40)}` };
  } else if (entryHash(record) !== linkedEntryHash) {
    return { missing: false, detail: 'was changed after it was linked (a field was changed, added or removed)' };
  }
  const disposal = disposalItem === undefined ? undefined : claimedDisposal(disposalItem);
  if (disposal === undefined) return { missing: true, detail: `was ${state.toLowerCase()} without a disposal record` };
  const matches =
    disposal.action === state &&
    disposal.record_type === TRAIL_RECORD_TYPE[trail] &&
    disposal.reference === marks.log_id &&
    disposal.checksum === linkedEntryHash &&
    marks.activity_time !== undefined &&
    Date.parse(disposal.policy.base_time) === Date.parse(marks.activity_time);
  if (!matches) return { missing: false, detail: `names disposal ${String(marks.disposal_id).slice(0, 40)}, which is not of this record` };
  const days = state === 'Deleted' ? disposal.policy.delete_after_days : (disposal.policy.destroy_after_days ?? disposal.policy.delete_after_days);
  if (days === undefined || Date.parse(disposal.policy.base_time) + days * DAY_MS > Date.parse(disposal.disposed_at)) {
    return { missing: false, detail: `was ${state.toLowerCase()} before its period ran out` };
  }
  return undefined;
}
