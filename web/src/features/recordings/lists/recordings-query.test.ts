import { describe, expect, it } from 'vitest';
import { outcomeText } from './row-outcome.ts';
import { recordingsQuery } from './recordings-list.tsx';

describe('recordingsQuery', () => {
  it('asks for the screen’s group of types, or the one type picked among them', () => {
    expect(recordingsQuery('calls', {})).toEqual({ payload_types: 'Calls' });
    expect(recordingsQuery('messages', { type: 'SMS' })).toEqual({ payload_types: 'SMS' });
    expect(recordingsQuery('photos', {})).toEqual({ payload_types: 'Photo' });
    expect(recordingsQuery('all', {})).toEqual({});
  });

  it('ignores a type from another screen (a hand-edited link) rather than listing it there', () => {
    expect(recordingsQuery('calls', { type: 'Photo' })).toEqual({ payload_types: 'Calls' });
  });

  it('sends every set filter as the API spells it and leaves out the unset', () => {
    expect(
      recordingsQuery('calls', {
        from: '2026-11-01',
        to: '2026-11-30',
        date_filter_type: 'processed_at',
        payload_state: 'Failed',
        is_late: true,
        group: 'london-equities',
        device_reference: 'D1',
        device_user_reference: 'du-alice',
        phone_number: '+447700900123',
        view: 'grid',
      }),
    ).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      date_filter_type: 'processed_at',
      payload_types: 'Calls',
      payload_state: 'Failed',
      is_late: 'true',
      group: 'london-equities',
      device_reference: 'D1',
      device_user_reference: 'du-alice',
      phone_number: '+447700900123',
    });
  });
});

describe('outcomeText', () => {
  it('names each row’s answer, refusals in words with their status', () => {
    expect(outcomeText({ action: 'receipt', ok: true, status: 'Ok' })).toBe('Receipt confirmed');
    expect(outcomeText({ action: 'download', ok: true, status: 'Ok' })).toBe('Link ready');
    expect(outcomeText({ action: 'download', ok: false, status: 'NoS3Url' })).toBe('No stored file (NoS3Url)');
    expect(outcomeText({ action: 'receipt', ok: false, status: 'GroupNotAuthorised' })).toBe('Group not allowed for your role (GroupNotAuthorised)');
    expect(outcomeText({ action: 'receipt', ok: false, status: 'Something new' })).toBe('Something new');
  });
});
