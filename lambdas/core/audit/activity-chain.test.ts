import { describe, expect, it } from 'vitest';
import { buildRecord, contentOf, GENESIS_HASH, hashContent } from './activity-chain.ts';

const entry = {
  user_id: 'user-1',
  activity_time: '2025-01-02T03:04:05.000Z',
  action: 'roles:List',
  is_allowed: true,
  roles: ['admin'],
  is_client_app: false,
  status_code: 200,
};

const build = (overrides: Partial<Parameters<typeof buildRecord>[0]> = {}) =>
  buildRecord({ client: 'acme', sequence: 1, previousHash: GENESIS_HASH, logId: 'log-1', entry, ...overrides });

describe('activity records', () => {
  it('hash the canonical content: SHA-256 hex, the same for the same record', () => {
    const { content, hash } = build();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(build().hash).toBe(hash);
    expect(hashContent({ ...content })).toBe(hash);
    expect(content).toMatchObject({ ...entry, log_id: 'log-1', client: 'acme', sequence: 1, previous_hash: GENESIS_HASH, chain_version: 1 });
  });

  it('change their hash when any field, the previous hash, the sequence or the tenant changes', () => {
    const { hash } = build();
    expect(build({ entry: { ...entry, is_allowed: false } }).hash).not.toBe(hash);
    expect(build({ entry: { ...entry, roles: ['admin', 'x'] } }).hash).not.toBe(hash);
    expect(build({ previousHash: 'f'.repeat(64) }).hash).not.toBe(hash);
    expect(build({ sequence: 2 }).hash).not.toBe(hash);
    expect(build({ client: 'demo' }).hash).not.toBe(hash);
    expect(build({ requestId: 'req-1' }).hash).not.toBe(hash);
  });

  it('keep the chain fields even when the entry tries to set them, and never store key attributes from it', () => {
    const hostile = { ...entry, sequence: 99, previous_hash: 'x', client: 'demo', pk: 'C#demo#X', hash: 'y' };
    const { content } = build({ entry: hostile });
    expect(content).toMatchObject({ sequence: 1, previous_hash: GENESIS_HASH, client: 'acme' });
    expect('pk' in content || 'hash' in content).toBe(false);
  });

  it('record an entry the contract refuses rather than lose it, and say so', () => {
    const { content } = build({ entry: { action: 42, pk: 'C#demo#X' } });
    expect(content).toMatchObject({ action: 42, entry_invalid: true, sequence: 1 });
    expect('pk' in content).toBe(false);
  });

  it('read the content back from a stored item without its keys or hash', () => {
    const { content, hash } = build();
    const item = { pk: 'C#acme#USER_ACTIVITY', sk: 'SEQ#000000000001', entity: 'UserActivity', gsi1pk: 'g', gsi1sk: 's', ...content, hash };
    expect(contentOf(item)).toEqual(content);
    expect(hashContent(contentOf(item))).toBe(hash);
  });
});
