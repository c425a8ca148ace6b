import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { payloadToItem, processedIndexKeys, readPayload, toPayload, type PayloadItem } from './payload.ts';

const payload: PayloadItem & { payload_time: string } = {
  client: 'acme',
  payload_reference: '01J00000000000000000000PAY',
  payload_type: 'Call',
  payload_state: 'Processed',
  payload_time: '2026-01-02T03:04:05.000Z',
  device_reference: 'dev-1',
  device_user_reference: 'du-1',
  group: 'North',
  key_id: 'k1',
  encrypted_dek: 'ZGVr',
  content_iv: 'aXY=',
  sealed_meta: 'c2VhbGVk',
  checksum: 'ab'.repeat(32),
  is_legacy: false,
  is_late: true,
  all_numbers: '+441,+442',
  metrics_pending: true,
  updated_at: '2026-01-02T03:05:00.000Z',
};

describe('payload item', () => {
  it('round-trips: keys for its three lists, typed on read, and the contract shape without the seal or the flags', () => {
    const item = payloadToItem('acme', payload);
    expect(item).toMatchObject(
      keys.payload.item('acme', { payloadReference: payload.payload_reference, payloadTime: payload.payload_time, deviceReference: 'dev-1', deviceUserReference: 'du-1' }),
    );
    const stored = readPayload(item);
    expect(stored).toEqual(payload);
    const shown = toPayload(stored);
    expect(shown).toMatchObject({ payload_reference: payload.payload_reference, payload_state: 'Processed', group: 'North', is_late: true, key_id: 'k1' });
    expect(shown).not.toHaveProperty('sealed_meta');
    expect(shown).not.toHaveProperty('metrics_pending');
    expect(shown).not.toHaveProperty('pk');
  });

  it('places a Processed payload among the tenant\'s Processed recordings by processing time, and no other', () => {
    const processed = payloadToItem('acme', { ...payload, processed_at: '2026-01-02T03:06:00.000Z' });
    expect(processed).toMatchObject(keys.payload.processedKeys('acme', payload.payload_reference, '2026-01-02T03:06:00.000Z'));
    expect(readPayload(processed)).not.toHaveProperty('by_processed_at_sk');
    for (const state of ['Recorded', 'Uploaded', 'Scanning', 'Failed', 'Quarantined', 'Deleted', 'Destroyed'] as const) {
      const item = payloadToItem('acme', { ...payload, payload_state: state, processed_at: '2026-01-02T03:06:00.000Z' });
      for (const name of keys.payload.processedKeyAttributes) expect(item, state).not.toHaveProperty(name);
    }
    // Processed without a processing time (never written so) has no place in a window.
    expect(processedIndexKeys('acme', { payload_reference: 'p', payload_state: 'Processed' })).toEqual({});
  });

  it('reads an older item that lacks the later attributes, and leaves a stored meta off the contract shape', () => {
    const old = { ...keys.payload.key('acme', 'p1'), entity: 'Payload', payload_reference: 'p1', payload_type: 'SMS', payload_state: 'Uploaded', device_reference: 'd', meta: { thread_id: 't' } };
    expect(readPayload(old)).toEqual({ payload_reference: 'p1', payload_type: 'SMS', payload_state: 'Uploaded', device_reference: 'd', meta: { thread_id: 't' } });
    expect(toPayload(readPayload(old))).toEqual({ payload_reference: 'p1', payload_type: 'SMS', payload_state: 'Uploaded', device_reference: 'd', is_legacy: false, is_late: false });
  });

  it('refuses a malformed item with an InternalError naming the entity and each path', () => {
    const item = { ...payloadToItem('acme', payload), payload_state: 'Lost', is_late: 'yes' };
    expect(() => readPayload(item)).toThrow(InternalError);
    expect(() => readPayload(item)).toThrow(/Payload item .*payload_state: .*is_late: /);
  });
});
