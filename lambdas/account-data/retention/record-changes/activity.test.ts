import { describe, expect, it } from 'vitest';
import type { TableItem, TransactOperation, WriteCondition } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { mergedCounters } from '../dispose.ts';
import { activityChange } from './activity.ts';

const CLIENT = 'acme';
const disposal = { disposal_id: 'D1', disposed_at: '2026-01-01T00:00:00.000Z' };
const condition: WriteCondition = { kind: 'expression', expression: 'attribute_exists(#pk) AND attribute_not_exists(#state)', names: { '#pk': 'pk', '#state': 'retention_state' } };

function record(entity: 'UserActivity' | 'DeviceActivity', linked: boolean, deleted: boolean): TableItem {
  return {
    ...keys.userActivity.item(CLIENT, '2025-01-01T00:00:00.000Z', 'log-1'),
    entity,
    client: CLIENT,
    log_id: 'log-1',
    activity_time: '2025-01-01T00:00:00.000Z',
    ...(linked ? { chain_state: 'linked', sequence: 7, entry_hash: 'e'.repeat(64) } : {}),
    ...(deleted ? { retention_state: 'Deleted', deleted_at: '2025-12-01T00:00:00.000Z' } : {}),
  };
}

/** What the disposal adds to the trail's disposed count (0 when it writes no counter). */
function countedBy(operations: TransactOperation[], trail: 'user' | 'device'): number {
  const { entity: _tag, ...counter } = keys.activityChain.disposedCount(trail, CLIENT);
  const updates = operations.filter((operation) => operation.kind === 'update' && operation.key.pk === counter.pk && operation.key.sk === counter.sk);
  expect(updates.length).toBeLessThanOrEqual(1);
  const [update] = updates;
  return update?.kind === 'update' ? (update.update.add?.disposed_count ?? 0) : 0;
}

describe('activity record disposal and the trail disposed count', () => {
  it('counts a deletion, linked or not', () => {
    expect(countedBy(activityChange(CLIENT, record('UserActivity', true, false), { action: 'Deleted', condition, disposal }), 'user')).toBe(1);
    expect(countedBy(activityChange(CLIENT, record('UserActivity', false, false), { action: 'Deleted', condition, disposal }), 'user')).toBe(1);
  });

  it('counts a live linked record destroyed into a stub, not a live unlinked one removed whole', () => {
    expect(countedBy(activityChange(CLIENT, record('DeviceActivity', true, false), { action: 'Destroyed', condition, disposal }), 'device')).toBe(1);
    const removed = activityChange(CLIENT, record('DeviceActivity', false, false), { action: 'Destroyed', condition, disposal });
    expect(removed.map((operation) => operation.kind)).toEqual(['delete']);
  });

  it('leaves a deleted linked record counted once when destroyed, and uncounts a deleted unlinked one removed whole', () => {
    expect(activityChange(CLIENT, record('UserActivity', true, true), { action: 'Destroyed', condition, disposal }).map((operation) => operation.kind)).toEqual(['put']);
    const removed = activityChange(CLIENT, record('UserActivity', false, true), { action: 'Destroyed', condition, disposal });
    expect(removed.map((operation) => operation.kind)).toEqual(['delete', 'update']);
    expect(countedBy(removed, 'user')).toBe(-1);
  });

  it('counts each trail on its own item, apart from the chain the sequencer writes', () => {
    const user = keys.activityChain.disposedCount('user', CLIENT);
    const device = keys.activityChain.disposedCount('device', CLIENT);
    expect(user.pk).not.toBe(device.pk);
    for (const trail of ['user', 'device'] as const) {
      const counter = keys.activityChain.disposedCount(trail, CLIENT);
      expect(counter.pk).not.toBe(keys.activityChain.head(trail, CLIENT).pk);
      expect(counter.pk.startsWith(`C#${CLIENT}#`)).toBe(true);
    }
  });

  it('merges the counts of several disposals in one transaction into one write of the counter item', () => {
    const operations = [
      ...activityChange(CLIENT, record('UserActivity', true, false), { action: 'Deleted', condition, disposal }),
      ...activityChange(CLIENT, { ...record('UserActivity', false, true), sk: 'other' }, { action: 'Destroyed', condition, disposal }),
      ...activityChange(CLIENT, { ...record('UserActivity', true, false), sk: 'third' }, { action: 'Destroyed', condition, disposal }),
    ];
    const merged = mergedCounters(operations);
    expect(merged).toHaveLength(operations.length - 2);
    expect(countedBy(merged, 'user')).toBe(1);
    // The records' own writes are untouched, in order.
    expect(merged.filter((operation) => operation.kind !== 'update' || operation.update.add === undefined)).toEqual(operations.filter((operation) => operation.kind !== 'update' || operation.update.add === undefined));
  });
});
