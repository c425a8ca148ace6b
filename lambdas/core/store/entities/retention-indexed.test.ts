import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readRetentionIndexed, retentionIndexedToItem, type RetentionIndexedItem } from './retention-indexed.ts';

const indexed: RetentionIndexedItem = {
  client: 'acme',
  positions: { user_activity: '2026-01-02T03:04:05.000Z', device_activity: '2026-01-01T00:00:00.000Z' },
  updated_at: '2026-01-02T03:05:00.000Z',
};

describe('retention indexed item', () => {
  it('round-trips under the RETENTION_INDEXED account setting', () => {
    const item = retentionIndexedToItem(indexed);
    expect(item).toMatchObject({ ...keys.retentionIndexed.key('acme'), entity: 'Account', setting: 'RETENTION_INDEXED' });
    expect(readRetentionIndexed(item)).toEqual(indexed);
  });

  it('reads a setting without positions as none, and refuses a position that is not a time string', () => {
    expect(readRetentionIndexed({ ...keys.retentionIndexed.key('acme'), entity: 'Account', client: 'acme' }).positions).toEqual({});
    const item = { ...retentionIndexedToItem(indexed), positions: { user_activity: 7 } };
    expect(() => readRetentionIndexed(item)).toThrow(InternalError);
    expect(() => readRetentionIndexed(item)).toThrow(/RetentionIndexed item .* positions\.user_activity: /);
  });
});
