import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { payloadAuditToItem, readPayloadAudit, readPayloadAuditAction, toPayloadAudit, type PayloadAuditItem } from './payload-audit.ts';

const play: PayloadAuditItem = { payload_reference: 'p1', action: 'play', portal_user: 'ada@acme.test', time: '2026-01-02T03:04:05.000Z' };
const receipt: PayloadAuditItem = { payload_reference: 'p1', action: 'receipt', portal_user: 'app:a1', time: '2026-01-02T03:05:00.000Z' };

describe('payload audit item', () => {
  it('round-trips: in the payload partition by time, read back, and split into records and receipts', () => {
    const item = payloadAuditToItem('acme', play, '01J0');
    expect(item).toMatchObject(keys.payload.audit('acme', 'p1', { time: play.time, id: '01J0' }));
    const stored = [readPayloadAudit(item), readPayloadAudit(payloadAuditToItem('acme', receipt, '01J1'))];
    expect(toPayloadAudit('p1', stored)).toEqual({
      payload_reference: 'p1',
      records: [{ portal_user: 'ada@acme.test', action: 'play', time: play.time }],
      receipts: [{ user: 'app:a1', time: receipt.time }],
    });
  });

  it('names an unknown actor when the record has none', () => {
    const { portal_user: _user, ...anonymous } = play;
    expect(toPayloadAudit('p1', [readPayloadAudit(payloadAuditToItem('acme', anonymous, '01J2'))]).records[0]?.portal_user).toBe('unknown');
  });

  it('refuses a record of an unknown action, naming the path', () => {
    const item = { ...payloadAuditToItem('acme', play, '01J0'), action: 'print' };
    expect(() => readPayloadAudit(item)).toThrow(InternalError);
    expect(() => readPayloadAudit(item)).toThrow(/PayloadAudit item .*action: /);
  });

  it('reads only the action where that is all a reader counts, and refuses one there is none of', () => {
    const { time: _time, ...untimed } = receipt;
    expect(readPayloadAuditAction({ ...payloadAuditToItem('acme', receipt, '01J0'), ...untimed, time: undefined })).toBe('receipt');
    expect(() => readPayloadAuditAction({ ...payloadAuditToItem('acme', play, '01J1'), action: 'stream' })).toThrow(/PayloadAudit item .* action: /);
  });
});
