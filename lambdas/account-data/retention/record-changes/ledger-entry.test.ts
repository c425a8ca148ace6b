import { describe, expect, it } from 'vitest';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { ledgerEntryToItem, type LedgerEntryItem } from '#core/store/entities/ledger-entry.ts';
import { readRecordPeople } from '#core/store/entities/record-people.ts';
import { keys } from '#core/store/keys.ts';
import { fromState } from '../dispose.ts';
import { dueMarkerItems } from '../due-index.ts';
import { deletePasses, destroyPasses, rulesOf } from '../retention-rules.ts';
import { ledgerEntryChanges } from './ledger-entry.ts';
import { awaitingEntryRemoval } from './payload.ts';

const now = new Date('2033-06-01T00:00:00.000Z');
const [rule] = rulesOf({ CaptureLedgerData: { delete_after_days: 1, destroy_after_days: 2 } }).filter((one) => one.recordType === 'CaptureLedgerData');
const [deletion] = deletePasses(rule!, now);
const [destruction] = destroyPasses(rule!, now);
const disposal = { disposed_at: now.toISOString() } as DisposalItem;
const START = '2026-03-01T10:00:00.000Z';

const entry = (fields: Partial<LedgerEntryItem> = {}) =>
  ledgerEntryToItem('acme', {
    entry_id: 'call#7',
    payload_type: 'Call',
    phone_number: '+44 7700 900123',
    direction: 'O',
    start_time: START,
    duration: 65,
    device_reference: 'dev-1',
    device_user_reference: 'alice',
    group: 'north',
    outcome: 'Missing',
    reported_at: '2026-03-01T10:05:00.000Z',
    outcome_at: '2026-03-02T10:05:00.000Z',
    due_at: '2026-03-02T10:01:05.000Z',
    day: '2026-03-01',
    ...fields,
  });

describe('ledger entries in retention (CaptureLedgerData)', () => {
  it('marks an entry from its start time, named by its device and id, and names its device and device user for holds', () => {
    const markers = dueMarkerItems('acme', entry());
    expect(markers.map((marker) => [marker.record_type, marker.reference, marker.kind, marker.base_time, marker.stage])).toEqual([['CaptureLedgerData', 'dev-1/call#7', 'at', START, 'LIVE']]);
    expect(readRecordPeople(entry())).toEqual({ entity: 'LedgerEntry', device_reference: 'dev-1', device_user_reference: 'alice' });
  });

  it('keeps a Pending entry (still being reconciled) however short the period; a settled one is due', () => {
    expect(fromState(entry({ outcome: 'Pending' }), deletion!)).toBe('active');
    for (const outcome of ['Captured', 'Captured late', 'Short', 'Missing'] as const) expect(typeof fromState(entry({ outcome }), deletion!), outcome).toBe('object');
  });

  it('deletes by marking the entry and taking it out of every list (matching too), and destroys by removing it', async () => {
    const live = entry();
    const condition = fromState(live, deletion!);
    if (typeof condition === 'string') throw new Error('due');
    const [deleted] = await ledgerEntryChanges.change({} as never, 'acme', live, { action: 'Deleted', condition, disposal });
    expect(deleted).toMatchObject({ kind: 'update', key: { pk: live.pk, sk: live.sk }, update: { set: { retention_state: 'Deleted', deleted_at: now.toISOString() } }, condition });
    const removed = deleted?.kind === 'update' ? (deleted.update.remove ?? []) : [];
    // Every index attribute the entry was placed in its lists by, and nothing else.
    expect([...removed].sort()).toEqual(Object.keys(live).filter((name) => /^gsi\d(pk|sk)$/.test(name)).sort());
    expect(removed).toHaveLength(6);

    const wasDeleted = { ...live, retention_state: 'Deleted', deleted_at: '2033-05-01T00:00:00.000Z' };
    const destroyCondition = fromState(wasDeleted, destruction!);
    if (typeof destroyCondition === 'string') throw new Error('due');
    expect(await ledgerEntryChanges.change({} as never, 'acme', wasDeleted, { action: 'Destroyed', condition: destroyCondition, disposal })).toEqual([
      { kind: 'delete', key: { pk: live.pk, sk: live.sk }, condition: destroyCondition },
    ]);
  });
});

describe('a destroyed recording\'s awaiting-entry marker (not a record of its own)', () => {
  const payload = (fields: Record<string, unknown>) => ({
    ...keys.payload.item('acme', { payloadReference: 'P1', payloadTime: START, deviceReference: 'dev-1' }),
    payload_reference: 'P1',
    device_reference: 'dev-1',
    payload_time: START,
    ...fields,
  });

  it('is deleted with a call or message recording, by its device, time and reference; not for other types', () => {
    for (const payloadType of ['Call', 'AbortedCall', 'SMS', 'MMS', 'RCS']) {
      expect(awaitingEntryRemoval('acme', payload({ payload_type: payloadType })), payloadType).toEqual([{ kind: 'delete', key: keys.awaitingEntry.key('acme', 'dev-1', START, 'P1') }]);
    }
    for (const payloadType of ['Video', 'Photo', 'Interview', 'BlockedCall', 'Diagnostics']) expect(awaitingEntryRemoval('acme', payload({ payload_type: payloadType })), payloadType).toEqual([]);
    expect(awaitingEntryRemoval('acme', payload({ payload_type: 'Call', payload_time: undefined }))).toEqual([]);
  });
});
