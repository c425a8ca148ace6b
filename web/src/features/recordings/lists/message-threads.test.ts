import { describe, expect, it } from 'vitest';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import { groupByThread } from './message-threads.ts';

const message = (reference: string, device: string, thread: string | undefined, parties: string): Payload => ({
  payload_reference: reference,
  device_reference: device,
  payload_type: 'SMS',
  payload_state: 'Processed',
  is_late: false,
  is_legacy: false,
  second_party_numbers: parties,
  ...(thread === undefined ? {} : { thread_id: thread }),
});

describe('groupByThread', () => {
  it('keeps threads in the order of their newest message and a thread’s messages together', () => {
    const rows = [
      message('m1', 'd1', 't-a', '+447700900001'),
      message('m2', 'd1', 't-b', '+447700900002'),
      message('m3', 'd1', 't-a', '+447700900001'),
      message('m4', 'd2', 't-a', '+447700900003'),
    ];
    const grouped = groupByThread(rows);
    expect(grouped.rows.map((row) => row.payload_reference)).toEqual(['m1', 'm3', 'm2', 'm4']);
    expect(grouped.places.get('m1')).toEqual({ label: '+447700900001', size: 2, first: true });
    expect(grouped.places.get('m3')?.first).toBe(false);
    // The same thread id on another device is another conversation.
    expect(grouped.places.get('m4')).toEqual({ label: '+447700900003', size: 1, first: true });
  });

  it('falls back to the other parties when the app sent no thread id', () => {
    const grouped = groupByThread([message('m1', 'd1', undefined, '+1'), message('m2', 'd1', undefined, '+2'), message('m3', 'd1', undefined, '+1')]);
    expect(grouped.rows.map((row) => row.payload_reference)).toEqual(['m1', 'm3', 'm2']);
  });
});
