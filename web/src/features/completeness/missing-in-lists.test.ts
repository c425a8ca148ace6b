import { describe, expect, it } from 'vitest';
import type { CompletenessEntry } from '#shared/contract/entities/completeness.ts';
import { gapRowOf, missingQuery, missingTypesFor } from './missing-in-lists.tsx';

describe('missingTypesFor', () => {
  it('shows missing calls in the calls list, and each message type in the messages list', () => {
    expect(missingTypesFor('calls', {})).toEqual(['Call']);
    expect(missingTypesFor('calls', { type: 'Call', device_user_reference: 'alice', from: '2026-11-01' })).toEqual(['Call']);
    expect(missingTypesFor('messages', {})).toEqual(['SMS', 'MMS', 'RCS']);
    expect(missingTypesFor('messages', { type: 'MMS' })).toEqual(['MMS']);
  });
  it('shows none when a filter is one a missing entry cannot meet', () => {
    expect(missingTypesFor('calls', { type: 'AbortedCall' })).toEqual([]);
    expect(missingTypesFor('calls', { payload_state: 'Processed' })).toEqual([]);
    expect(missingTypesFor('calls', { is_late: true })).toEqual([]);
    expect(missingTypesFor('calls', { stored: true })).toEqual([]);
    expect(missingTypesFor('messages', { phone_number: '+447700900123' })).toEqual([]);
    expect(missingTypesFor('calls', { date_filter_type: 'processed_at' })).toEqual([]);
    expect(missingTypesFor('calls', { date_filter_type: 'payload_time' })).toEqual(['Call']);
  });
});

describe('missingQuery', () => {
  it('asks for the Missing entries of the type under the list’s period and cut, blanks left out', () => {
    expect(missingQuery('Call', { from: '2026-11-01', to: '2026-11-29', device_user_reference: 'alice', group: '  ' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-29',
      device_user_reference: 'alice',
      outcome: 'Missing',
      payload_type: 'Call',
      limit: '100',
    });
  });
});

describe('gapRowOf', () => {
  it('keeps what the entry says and whose phone saw it, and its thread for placing a message', () => {
    const entry: CompletenessEntry = {
      entry_reference: 'dev-1/sms-3',
      outcome: 'Missing',
      payload_type: 'SMS',
      direction: 'I',
      phone_number: '+44 7700 900456',
      thread_id: '12',
      start_time: '2026-11-20T10:00:00.000Z',
      device_reference: 'dev-1',
      device_model: 'Pixel 8',
    };
    expect(gapRowOf(entry)).toEqual({
      gap_key: 'dev-1/sms-3',
      time: '2026-11-20T10:00:00.000Z',
      text: 'Missing SMS: +44 7700 900456, incoming, not recorded · Pixel 8',
      device_reference: 'dev-1',
      thread_id: '12',
    });
  });
});
