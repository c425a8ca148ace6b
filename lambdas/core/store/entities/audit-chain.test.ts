import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import {
  auditCheckpointToItem,
  auditHeadToItem,
  auditLinkToItem,
  claimedAuditCheckpoint,
  claimedAuditHead,
  claimedAuditLink,
  readAuditCheckpoint,
  readAuditDisposedCount,
  readAuditHead,
  readAuditLink,
  readAuditRecordMarks,
  type AuditCheckpointItem,
  type AuditLinkItem,
} from './audit-chain.ts';

const link: AuditLinkItem = {
  chain_version: 2,
  client: 'acme',
  trail: 'user',
  sequence: 7,
  previous_hash: 'a'.repeat(64),
  entry_hash: 'b'.repeat(64),
  record: '2026-01-02T03:04:05.000Z#01J0',
  hash: 'c'.repeat(64),
};

const checkpoint: AuditCheckpointItem = {
  chain_version: 2,
  client: 'acme',
  trail: 'device',
  sequence: 7,
  hash: 'c'.repeat(64),
  checkpoint_at: '2026-01-02T04:00:00.000Z',
  previous_checkpoint_at: null,
  key_id: 'audit-signing',
  signature: 'c2ln',
  algorithm: 'ECDSA_SHA_256',
};

describe('audit chain items', () => {
  it('round-trip a link under its sequence, a head, and a checkpoint under its time', () => {
    const linkItem = auditLinkToItem(link);
    expect(linkItem).toMatchObject(keys.activityChain.link('user', 'acme', 7));
    expect(readAuditLink(linkItem)).toEqual(link);

    const headItem = auditHeadToItem('user', 'acme', { sequence: 7, hash: link.hash, linked_at: '2026-01-02T03:05:00.000Z' });
    expect(headItem).toMatchObject(keys.activityChain.head('user', 'acme'));
    expect(readAuditHead(headItem)).toEqual({ client: 'acme', trail: 'user', sequence: 7, hash: link.hash, linked_at: '2026-01-02T03:05:00.000Z' });

    const checkpointItem = auditCheckpointToItem(checkpoint);
    expect(checkpointItem).toMatchObject(keys.activityChain.checkpoint('device', 'acme', checkpoint.checkpoint_at));
    expect(readAuditCheckpoint(checkpointItem)).toEqual(checkpoint);
  });

  it('refuses a malformed link as our bug, naming the path, and claims nothing for a damaged one', () => {
    const damaged = { ...auditLinkToItem(link), sequence: '7' };
    expect(() => readAuditLink(damaged)).toThrow(InternalError);
    expect(() => readAuditLink(damaged)).toThrow(/AuditLink item .*sequence: /);
    expect(claimedAuditLink(damaged)).toBeUndefined();
    expect(claimedAuditLink(auditLinkToItem(link))).toEqual(link);
  });

  it('claims no checkpoint without a signature and no head without a hash', () => {
    const { signature: _signature, ...unsigned } = checkpoint;
    expect(claimedAuditCheckpoint({ ...keys.activityChain.checkpoint('device', 'acme', checkpoint.checkpoint_at), ...unsigned })).toBeUndefined();
    expect(() => readAuditCheckpoint({ ...keys.activityChain.checkpoint('device', 'acme', checkpoint.checkpoint_at), ...unsigned })).toThrow(/signature: /);
    expect(claimedAuditHead({ ...keys.activityChain.head('user', 'acme'), sequence: 3 })).toBeUndefined();
  });
});

describe('an activity record’s chain marks', () => {
  const record = {
    ...keys.userActivity.item('acme', '2026-01-02T03:04:05.000Z', '01J0'),
    ...keys.activityChain.pendingKeys('user', 'acme', '2026-01-02T03:04:05.000Z#01J0'),
    client: 'acme',
    log_id: '01J0',
    activity_time: '2026-01-02T03:04:05.000Z',
    action: 'roles:List',
    chain_state: 'pending',
  };

  it('reads the place and retention marks, not the call the record holds', () => {
    expect(readAuditRecordMarks(record)).toEqual({
      client: 'acme',
      log_id: '01J0',
      activity_time: '2026-01-02T03:04:05.000Z',
      chain_state: 'pending',
      gsi2pk: 'C#acme#USER_ACTIVITY#PENDING',
      gsi2sk: '2026-01-02T03:04:05.000Z#01J0',
    });
    const stub = { ...record, chain_state: 'linked', sequence: 4, retention_state: 'Destroyed', destroyed_at: '2026-06-01T00:00:00.000Z', disposal_id: 'D1', entry_hash: 'e'.repeat(64) };
    expect(readAuditRecordMarks(stub)).toMatchObject({ sequence: 4, retention_state: 'Destroyed', destroyed_at: '2026-06-01T00:00:00.000Z', disposal_id: 'D1', entry_hash: 'e'.repeat(64) });
  });

  it('never fails on a tampered record: a sequence that is no number reads as NaN, a state as its text, the rest as missing', () => {
    const marks = readAuditRecordMarks({ ...record, sequence: '7', chain_state: 'forged', retention_state: 42, activity_time: 5, disposal_id: null });
    expect(marks.sequence).toBeNaN();
    expect(marks).toMatchObject({ retention_state: '42' });
    expect(marks.chain_state).toBeUndefined();
    expect(marks.activity_time).toBeUndefined();
    expect(marks.disposal_id).toBeUndefined();
  });
});

describe('a trail’s disposed count', () => {
  const counter = { ...keys.activityChain.disposedCount('device', 'acme'), client: 'acme', disposed_count: 3 };

  it('reads the count the disposals added up', () => {
    expect(readAuditDisposedCount(counter)).toEqual({ client: 'acme', disposed_count: 3 });
  });

  it('refuses a count that is not a number, naming the path', () => {
    expect(() => readAuditDisposedCount({ ...counter, disposed_count: '3' })).toThrow(InternalError);
    expect(() => readAuditDisposedCount({ ...counter, disposed_count: '3' })).toThrow(/AuditDisposedCount item .*disposed_count: /);
  });
});
