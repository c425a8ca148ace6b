import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { payloadSweepToItem, readPayloadSweep } from './payload-sweep.ts';

describe('payload sweep marker item', () => {
  it('round-trips: due on the sweep list at its due time, first seen at since, no attempts yet', () => {
    const since = new Date('2026-01-02T03:00:00.000Z');
    const due = new Date('2026-01-02T03:15:00.000Z');
    const item = payloadSweepToItem('acme', 'p1', since, due);
    expect(item).toMatchObject(keys.payload.sweep('acme', 'p1', due));
    expect(readPayloadSweep(item)).toEqual({ client: 'acme', payload_reference: 'p1', since: since.toISOString(), attempts: 0 });
  });

  it('reads a rescheduled, alerted marker and one written without attempts', () => {
    const base = { ...keys.payload.sweep('acme', 'p1', '2026-01-01T00:00:00Z'), payload_reference: 'p1', since: '2026-01-01T00:00:00Z' };
    expect(readPayloadSweep(base).attempts).toBeUndefined();
    expect(readPayloadSweep({ ...base, attempts: 3, alerted: true, expires_at_epoch: 1 })).toMatchObject({ attempts: 3, alerted: true });
  });

  it('refuses a marker without its first sighting, naming the path', () => {
    const { since: _since, ...item } = payloadSweepToItem('acme', 'p1', new Date(0), new Date(0));
    expect(() => readPayloadSweep(item)).toThrow(InternalError);
    expect(() => readPayloadSweep(item)).toThrow(/PayloadSweep item .*since: /);
  });
});
