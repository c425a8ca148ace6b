import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { payloadToItem, processedIndexKeys, readPayload, threadIndexKeys, toPayload, type PayloadItem } from './payload.ts';

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

  it('places a message with a thread in its device\'s thread by payload time, and nothing else', () => {
    const message = payloadToItem('acme', { ...payload, payload_type: 'SMS', thread_id: 'thread#1' });
    expect(message).toMatchObject({ by_thread_pk: 'C#acme#DEVICE#dev-1#THREAD#thread%231', by_thread_sk: `${payload.payload_time}#${payload.payload_reference}` });
    expect(message).toMatchObject(keys.payload.threadKeys('acme', { deviceReference: 'dev-1', threadId: 'thread#1', payloadTime: payload.payload_time, payloadReference: payload.payload_reference }));
    expect(keys.payload.listThread('acme', 'dev-1', 'thread#1')).toEqual({ index: 'byThread', partition: 'C#acme#DEVICE#dev-1#THREAD#thread%231' });
    for (const type of ['MMS', 'RCS'] as const) expect(payloadToItem('acme', { ...payload, payload_type: type, thread_id: 't' }), type).toHaveProperty('by_thread_pk');
    // A call never joins a thread, even with a thread attribute; a message without a thread is in none.
    const call = payloadToItem('acme', { ...payload, thread_id: 't' });
    const loose = payloadToItem('acme', { ...payload, payload_type: 'SMS' });
    for (const item of [call, loose]) for (const name of keys.payload.threadKeyAttributes) expect(item).not.toHaveProperty(name);
    expect(threadIndexKeys('acme', { payload_reference: 'p', payload_type: 'SMS', device_reference: 'd', thread_id: 't' })).toEqual({});
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
