import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { ledgerEntryToItem, readLedgerEntry, readLedgerWatermark, type LedgerEntryItem } from './ledger-entry.ts';

const entry: LedgerEntryItem = {
  entry_id: 'call#7',
  payload_type: 'Call',
  phone_number: '+44 7700 900123',
  direction: 'O',
  start_time: '2026-03-01T10:00:00.000Z',
  duration: 65,
  device_reference: 'dev-1',
  device_user_reference: 'alice',
  group: 'north',
  outcome: 'Pending',
  reported_at: '2026-03-01T10:05:00.000Z',
  outcome_at: '2026-03-01T10:05:00.000Z',
  due_at: '2026-03-02T10:01:05.000Z',
  day: '2026-03-01',
};

describe('ledger entry item', () => {
  it('round-trips under the device\'s ledger partition, keyed by the phone\'s entry id (escaped)', () => {
    const item = ledgerEntryToItem('acme', entry);
    expect(item).toMatchObject({ pk: 'C#acme#DEVICE#dev-1#LEDGER', sk: 'ENTRY#call%237', entity: 'LedgerEntry' });
    expect(keys.ledgerEntry.key('acme', 'dev-1', 'call#7')).toEqual({ pk: item.pk, sk: item.sk });
    expect(readLedgerEntry(item)).toEqual(entry);
  });

  it('sits in its device\'s time list, its device user\'s and its outcome\'s, each by start time', () => {
    const item = ledgerEntryToItem('acme', entry);
    expect(item).toMatchObject({
      gsi1pk: 'C#acme#DEVICE#dev-1#LEDGER#T',
      gsi1sk: '2026-03-01T10:00:00.000Z#call%237',
      gsi2pk: 'C#acme#DUSER#alice#LEDGER',
      gsi2sk: '2026-03-01T10:00:00.000Z#dev-1/call%237',
      gsi3pk: 'C#acme#LEDGER#Pending',
      gsi3sk: '2026-03-01T10:00:00.000Z#dev-1/call%237',
    });
    expect(keys.ledgerEntry.listByDevice('acme', 'dev-1')).toEqual({ index: 'gsi1', partition: item.gsi1pk });
    expect(keys.ledgerEntry.listByDeviceUser('acme', 'alice')).toEqual({ index: 'gsi2', partition: item.gsi2pk });
    expect(keys.ledgerEntry.listByOutcome('acme', 'Pending')).toEqual({ index: 'gsi3', partition: item.gsi3pk });
  });

  it('moves to its new outcome\'s list with the outcome, and has no device user list without a holder', () => {
    const { device_user_reference: _holder, ...unheld } = entry;
    const item = ledgerEntryToItem('acme', { ...unheld, outcome: 'Captured late' });
    expect(item.gsi3pk).toBe('C#acme#LEDGER#Captured late');
    expect(item).not.toHaveProperty('gsi2pk');
    expect(keys.ledgerEntry.outcomeIndex('acme', { deviceReference: 'dev-1', entryId: 'call#7', startTime: entry.start_time, outcome: 'Missing' })).toEqual({
      gsi3pk: 'C#acme#LEDGER#Missing',
      gsi3sk: '2026-03-01T10:00:00.000Z#dev-1/call%237',
    });
  });

  it('refuses a stored entry with an outcome it cannot have, naming the path', () => {
    const item = { ...ledgerEntryToItem('acme', entry), outcome: 'Unexpected' };
    expect(() => readLedgerEntry(item)).toThrow(InternalError);
    expect(() => readLedgerEntry(item)).toThrow(/LedgerEntry item .*outcome: /);
  });

  it('reads the device\'s ledger watermark off the device item, absent until the first report', () => {
    const device = { ...keys.device.item('acme', 'dev-1'), device_reference: 'dev-1', ledger_covered_to: '2026-03-01T11:00:00.000Z' };
    expect(readLedgerWatermark(device)).toEqual({ ledger_covered_to: '2026-03-01T11:00:00.000Z' });
    expect(readLedgerWatermark({ ...keys.device.item('acme', 'dev-1') })).toEqual({});
  });
});
