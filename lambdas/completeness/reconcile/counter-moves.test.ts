import { describe, expect, it } from 'vitest';
import { counterOperations, entryStored, outcomeChanged, unexpectedChanged, type CountedCuts } from './counter-moves.ts';

const cuts: CountedCuts = { day: '2026-03-01', device_reference: 'dev-1', device_user_reference: 'alice', group: 'north' };

const byKey = (operations: ReturnType<typeof counterOperations>) =>
  Object.fromEntries(operations.map((operation) => {
    if (operation.kind !== 'update') throw new Error('not an update');
    return [`${operation.key.pk} ${operation.key.sk}`, operation.update];
  }));

describe('counter moves', () => {
  it('count a new entry on the six items of its day: tenant, group, device user twice, device twice, with their labels (the group on every cut it holds)', () => {
    const updates = byKey(counterOperations('acme', [entryStored(cuts, 'Call', 'Pending')]));
    expect(Object.keys(updates).sort()).toEqual([
      'C#acme#COMPLETENESS#DEVICE 2026-03-01#dev-1',
      'C#acme#COMPLETENESS#DUSER 2026-03-01#alice',
      'C#acme#COMPLETENESS#GROUP 2026-03-01#north',
      'C#acme#COMPLETENESS#TENANT 2026-03-01',
      'C#acme#DEVICE#dev-1#COMPLETENESS 2026-03-01',
      'C#acme#DUSER#alice#COMPLETENESS 2026-03-01',
    ]);
    expect(updates['C#acme#COMPLETENESS#GROUP 2026-03-01#north']).toEqual({
      set: { entity: 'CompletenessCounters', day: '2026-03-01', group: 'north' },
      add: { 'Call#expected': 1, 'Call#pending': 1 },
    });
    expect(updates['C#acme#DEVICE#dev-1#COMPLETENESS 2026-03-01']?.set).toEqual({ entity: 'CompletenessCounters', day: '2026-03-01', device_reference: 'dev-1', group: 'north' });
    expect(updates['C#acme#COMPLETENESS#TENANT 2026-03-01']?.set).toEqual({ entity: 'CompletenessCounters', day: '2026-03-01' });
  });

  it('count an entry with no holder and no group on the tenant and device items only', () => {
    const updates = byKey(counterOperations('acme', [entryStored({ day: cuts.day, device_reference: 'dev-1' }, 'SMS', 'Captured')]));
    expect(Object.keys(updates)).toHaveLength(3);
    expect(updates['C#acme#COMPLETENESS#TENANT 2026-03-01']?.add).toEqual({ 'SMS#expected': 1, 'SMS#captured': 1 });
  });

  it('move a Missing entry to Captured late: missing -1, captured late +1, expected unchanged', () => {
    const updates = byKey(counterOperations('acme', [outcomeChanged(cuts, 'Call', 'Missing', 'Captured late')]));
    expect(updates['C#acme#COMPLETENESS#TENANT 2026-03-01']?.add).toEqual({ 'Call#missing': -1, 'Call#captured_late': 1 });
    expect(counterOperations('acme', [outcomeChanged(cuts, 'Call', 'Pending', 'Pending')])).toEqual([]);
  });

  it('merge moves on the same items into one update each (a transaction names an item once)', () => {
    const explained = counterOperations('acme', [entryStored(cuts, 'Call', 'Captured'), unexpectedChanged(cuts, 'Call', -1)]);
    expect(explained).toHaveLength(6);
    expect(byKey(explained)['C#acme#COMPLETENESS#TENANT 2026-03-01']?.add).toEqual({ 'Call#expected': 1, 'Call#captured': 1, 'Call#unexpected': -1 });
  });

  it('keep moves on different days or cuts apart, and leave out counters that net to nothing', () => {
    const otherDay = { ...cuts, day: '2026-02-28', device_user_reference: 'bob' };
    const operations = counterOperations('acme', [entryStored(cuts, 'Call', 'Captured'), unexpectedChanged(otherDay, 'Call', -1)]);
    expect(operations).toHaveLength(12);
    const nets = counterOperations('acme', [unexpectedChanged(cuts, 'Call', 1), unexpectedChanged(cuts, 'Call', -1)]);
    expect(nets).toEqual([]);
  });
});
