import { describe, expect, it } from 'vitest';
import { partiesOf } from './parties.ts';

describe('recording parties', () => {
  it('reads a call, a message and the older single-party form', () => {
    expect(
      partiesOf({ second_parties: [{ phone_number: '+447700900001', contact_name: 'Ann', direction: 'O', start_time: '2025-01-01T10:00:00Z', duration: 42 }, { phone_number: '' }] }),
    ).toEqual([{ phoneNumber: '+447700900001', contactName: 'Ann', direction: 'O', startTime: '2025-01-01T10:00:00Z', duration: 42 }]);
    expect(partiesOf({ direction: 'I', message_parties: [{ phone_number: '+447700900002', contact_name: null }] })).toEqual([{ phoneNumber: '+447700900002', direction: 'I' }]);
    expect(partiesOf({ direction: 'O', second_party: { phone_number: '+447700900003' } })).toEqual([{ phoneNumber: '+447700900003', direction: 'O' }]);
    expect(partiesOf(undefined)).toEqual([]);
    expect(partiesOf({ second_parties: 'not a list' })).toEqual([]);
  });
});
