import { describe, expect, it } from 'vitest';
import type { TableItem } from '../../core/ports/table-store.ts';
import { disposalToItem, type DisposalItem } from '../../core/store/entities/disposal.ts';
import { keys } from '../../core/store/keys.ts';
import { entryHash } from './activity-chain.ts';
import { destroyedRecordStub, disposalProblem } from './disposed-records.ts';

const client = 'acme';
const activityTime = '2025-01-01T10:00:00.000Z';
const record: TableItem = {
  ...keys.userActivity.item(client, activityTime, 'L1', 'officer'),
  client,
  log_id: 'L1',
  user_id: 'officer',
  activity_time: activityTime,
  action: 'payloads:List',
  is_allowed: true,
  chain_state: 'linked',
  sequence: 7,
};
const linked = entryHash(record);
const disposal = (overrides: Partial<DisposalItem> = {}): TableItem =>
  disposalToItem({
    client,
    disposal_id: 'D1',
    record_type: 'UserActivityData',
    reference: 'L1',
    action: 'Destroyed',
    checksum: linked,
    disposed_at: '2025-06-01T00:00:00.000Z',
    run_id: 'R1',
    policy: { delete_after_days: 30, destroy_after_days: 100, base_time: activityTime },
    ...overrides,
  });
const stub = destroyedRecordStub(record, { disposal_id: 'D1', disposed_at: '2025-06-01T00:00:00.000Z' });

describe('a record retention disposed of, against the disposal record it names', () => {
  it('stands when the disposal record is of this record, holds its entry hash and came after its period', () => {
    expect(stub.entry_hash).toBe(linked);
    expect(disposalProblem('user', stub, linked, disposal())).toBeUndefined();
    const deleted = { ...record, retention_state: 'Deleted', deleted_at: '2025-02-15T00:00:00.000Z', disposal_id: 'D2' };
    // The marks are outside the entry hash: a deleted record still matches its link.
    expect(entryHash(deleted)).toBe(linked);
    expect(disposalProblem('user', deleted, linked, disposal({ disposal_id: 'D2', action: 'Deleted', disposed_at: '2025-02-15T00:00:00.000Z' }))).toBeUndefined();
  });

  it('is refused without its disposal record, or with one of another record, another trail, or too early', () => {
    expect(disposalProblem('user', stub, linked, undefined)).toEqual({ missing: true, detail: 'was destroyed without a disposal record' });
    expect(disposalProblem('user', stub, linked, disposal({ reference: 'L2' }))?.detail).toMatch(/not of this record/);
    expect(disposalProblem('device', stub, linked, disposal())?.detail).toMatch(/not of this record/);
    expect(disposalProblem('user', stub, linked, disposal({ checksum: 'f'.repeat(64) }))?.detail).toMatch(/not of this record/);
    expect(disposalProblem('user', stub, linked, disposal({ action: 'Deleted' }))?.detail).toMatch(/not of this record/);
    expect(disposalProblem('user', stub, linked, disposal({ disposed_at: '2025-03-01T00:00:00.000Z' }))?.detail).toBe('was destroyed before its period ran out');
  });

  it('is refused when the stub keeps content, names other content, or the record says another state', () => {
    expect(disposalProblem('user', { ...stub, action: 'payloads:List' }, linked, disposal())?.detail).toBe('is a stub that holds action');
    expect(disposalProblem('user', stub, 'e'.repeat(64), disposal())?.detail).toBe('is a stub of other content than its link names');
    expect(disposalProblem('user', { ...record, retention_state: 'Erased' }, linked, disposal())?.detail).toMatch(/says retention left it Erased/);
    expect(disposalProblem('user', { ...record, retention_state: 'Deleted', is_allowed: false }, linked, disposal({ action: 'Deleted' }))?.detail).toMatch(/was changed after it was linked/);
  });
});
