import { describe, expect, it } from 'vitest';
import { keys } from '../keys.ts';
import { awaitingEntryToItem, readAwaitingEntry, type AwaitingEntryItem } from './awaiting-entry.ts';
import { ledgerEntryToItem } from './ledger-entry.ts';

const marker: AwaitingEntryItem = {
  payload_reference: 'p-1',
  payload_type: 'SMS',
  payload_time: '2026-03-01T10:00:00.000Z',
  device_reference: 'dev-1',
  direction: 'I',
  numbers: ['7700900123'],
  thread_id: '42',
  uploaded_at: '2026-03-01T10:01:00.000Z',
  device_user_reference: 'alice',
  group: 'north',
  unexpected: false,
  day: '2026-03-01',
};

describe('awaiting entry item', () => {
  it('round-trips in the device\'s awaiting partition by recording time, and in the tenant\'s sweep list', () => {
    const item = awaitingEntryToItem('acme', marker);
    expect(item).toMatchObject({
      pk: 'C#acme#DEVICE#dev-1#AWAITING',
      sk: '2026-03-01T10:00:00.000Z#p-1',
      entity: 'AwaitingEntry',
      gsi1pk: 'C#acme#AWAITING',
      gsi1sk: '2026-03-01T10:00:00.000Z#p-1',
    });
    expect(keys.awaitingEntry.key('acme', 'dev-1', marker.payload_time, 'p-1')).toEqual({ pk: item.pk, sk: item.sk });
    expect(keys.awaitingEntry.listByDevice('acme', 'dev-1')).toEqual({ partition: item.pk });
    expect(keys.awaitingEntry.listByTenant('acme')).toEqual({ index: 'gsi1', partition: item.gsi1pk });
    expect(readAwaitingEntry(item)).toEqual(marker);
  });

  it('is in no entries list while it awaits, and in the device user\'s and the Unexpected outcome\'s lists beside ledger entries once Unexpected', () => {
    expect(awaitingEntryToItem('acme', marker)).not.toHaveProperty('gsi2pk');
    expect(awaitingEntryToItem('acme', marker)).not.toHaveProperty('gsi3pk');
    const unexpected = awaitingEntryToItem('acme', { ...marker, unexpected: true });
    expect(unexpected).toMatchObject({ gsi3pk: 'C#acme#LEDGER#Unexpected', gsi2pk: 'C#acme#DUSER#alice#LEDGER' });
    expect(keys.ledgerEntry.listByOutcome('acme', 'Unexpected').partition).toBe(unexpected.gsi3pk);
    const entry = ledgerEntryToItem('acme', {
      entry_id: 'e', payload_type: 'SMS', thread_id: '42', direction: 'I', start_time: marker.payload_time, device_reference: 'dev-1',
      device_user_reference: 'alice', outcome: 'Pending', reported_at: 'x', outcome_at: 'x', due_at: 'x', day: '2026-03-01',
    });
    expect(entry.gsi2pk).toBe(unexpected.gsi2pk);
  });
});
