import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readRetentionPolicy, retentionPolicyToItem, toRetentionPolicy, type RetentionPolicyItem } from './retention-policy.ts';

const policy: RetentionPolicyItem = {
  client: 'acme',
  GpsData: { delete_after_days: 30, destroy_after_days: 60 },
  AlertData: {},
  PayloadData: [{ payload_type: 'SMS', delete_after_days: 10, retention_timestamp: 'processed_at', required_receipts: 1, required_transfers: 0 }],
  updated_by: 'u-1',
  updated_at: '2026-01-02T03:04:05.000Z',
};

describe('retention policy item', () => {
  it('round-trips under the RETENTION account setting, the key processing reads', () => {
    const item = retentionPolicyToItem('acme', policy);
    expect(item).toMatchObject({ ...keys.account.setting('acme', 'RETENTION'), entity: 'Account', setting: 'RETENTION' });
    expect(toRetentionPolicy(readRetentionPolicy(item))).toEqual(policy);
  });

  it('refuses a malformed item naming the entity and the path', () => {
    const item = { ...retentionPolicyToItem('acme', policy), GpsData: { delete_after_days: -3 } };
    expect(() => readRetentionPolicy(item)).toThrow(InternalError);
    expect(() => readRetentionPolicy(item)).toThrow(/RetentionPolicy item .* GpsData\.delete_after_days: /);
  });
});
