import { describe, expect, it } from 'vitest';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import { markerOf, reconciledRecordingOf, recordingOfMarker } from './recording-facts.ts';

const payload = (overrides: Partial<PayloadItem> = {}): PayloadItem => ({
  payload_reference: 'p-1',
  payload_state: 'Scanning',
  payload_type: 'Call',
  device_reference: 'dev-1',
  device_user_reference: 'alice',
  group: 'north',
  payload_time: '2026-03-01T10:00:00.000Z',
  uploaded_at: '2026-03-01T10:03:00.000Z',
  is_legacy: false,
  is_late: false,
  ...overrides,
});

describe('a processed recording as reconciliation reads it', () => {
  it('takes a call\'s direction from its first party, every party\'s number comparable, the full duration and intermittence', () => {
    const meta = {
      payload_time: '2026-03-01T10:00:00Z',
      payload_full_duration: 61,
      is_intermittent: true,
      second_parties: [{ phone_number: '+44 7700 900123', direction: 'O' }, { phone_number: '07700 900124', direction: 'CC' }],
    };
    expect(reconciledRecordingOf(payload(), meta)).toEqual({
      payload_reference: 'p-1',
      payload_type: 'Call',
      direction: 'O',
      payload_time: '2026-03-01T10:00:00.000Z',
      numbers: ['700900123', '700900124'],
      recording_duration: 61,
      is_intermittent: true,
      uploaded_at: '2026-03-01T10:03:00.000Z',
      device_reference: 'dev-1',
      device_user_reference: 'alice',
      group: 'north',
    });
  });

  it('takes a message\'s own direction and thread, and the legacy single party', () => {
    const read = reconciledRecordingOf(payload({ payload_type: 'SMS', is_late: true }), { direction: 'I', thread_id: '42', second_party: { phone_number: '+1 555 0100' } });
    expect(read).toMatchObject({ payload_type: 'SMS', direction: 'I', thread_id: '42', numbers: ['15550100'], is_late: true });
    expect(read).not.toHaveProperty('recording_duration');
  });

  it('reads nothing it cannot match by: no time, no direction', () => {
    expect(reconciledRecordingOf(payload({ payload_time: undefined }), { direction: 'I' })).toBeUndefined();
    expect(reconciledRecordingOf(payload(), { second_parties: [{ phone_number: '1' }] })).toBeUndefined();
    expect(reconciledRecordingOf(payload({ payload_type: 'SMS' }), { direction: 'sideways' })).toBeUndefined();
  });

  it('leaves a marker that stands for the same recording, counted on its UTC day, not yet Unexpected', () => {
    const recording = reconciledRecordingOf(payload(), { payload_full_duration: 10, second_parties: [{ phone_number: '+447700900123', direction: 'I' }] })!;
    const marker = markerOf(recording, '2026-03-01T10:05:00.000Z');
    expect(marker).toMatchObject({ unexpected: false, day: '2026-03-01', numbers: ['700900123'], uploaded_at: '2026-03-01T10:03:00.000Z', group: 'north' });
    const back = recordingOfMarker(marker);
    expect({ ...back, numbers: [...back.numbers] }).toMatchObject({ ...recording, numbers: [...recording.numbers] });
  });
});
