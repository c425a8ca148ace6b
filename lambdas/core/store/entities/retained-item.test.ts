import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { readRetainedAs, readRetainedItem } from './retained-item.ts';

describe('retained item', () => {
  it('reads only what retention needs of each record, told apart by its entity tag', () => {
    const payload = {
      ...keys.payload.key('acme', 'p1'),
      entity: 'Payload',
      payload_reference: 'p1',
      payload_type: 'Call',
      payload_state: 'Processed',
      payload_time: '2026-01-01T00:00:00.000Z',
      checksum: 'ab',
      sealed_meta: 'left unread',
    };
    expect(readRetainedItem(payload)).toEqual({
      entity: 'Payload',
      payload_reference: 'p1',
      payload_type: 'Call',
      payload_state: 'Processed',
      payload_time: '2026-01-01T00:00:00.000Z',
      checksum: 'ab',
    });
    const fix = { ...keys.gps.item('acme', { time: '2026-01-01T00:00:00.000Z', id: 'g1', deviceReference: 'd1' }), gps_reference: 'g1', retention_state: 'Deleted', deleted_at: '2026-02-01T00:00:00.000Z' };
    expect(readRetainedItem(fix)).toEqual({ entity: 'Gps', gps_reference: 'g1', retention_state: 'Deleted', deleted_at: '2026-02-01T00:00:00.000Z' });
  });

  it('reads the part of a record a writer just changed, and nothing for an entity retention does not keep', () => {
    const outcome = { ...keys.migration.item('acme', 'm1'), migration_reference: 'm1', migration_state: 'Migrated', migrated_at: '2026-01-01T00:00:00.000Z' };
    expect(readRetainedAs('Migration', outcome)).toEqual({ entity: 'Migration', migration_reference: 'm1', migration_state: 'Migrated', migrated_at: '2026-01-01T00:00:00.000Z' });
    expect(readRetainedItem({ ...keys.role.item('acme', 'r1'), role_reference: 'r1' })).toBeUndefined();
  });

  it('refuses a record without its reference, or in a state there is none of, naming the entity and the path', () => {
    const transfer = { ...keys.transfer.item('acme', 't1'), transfer_state: 'Succeeded' };
    expect(() => readRetainedItem(transfer)).toThrow(InternalError);
    expect(() => readRetainedItem(transfer)).toThrow(/Transfer item .* transfer_id: /);
    const user = { ...keys.deviceUser.item('acme', 'ann'), device_user_reference: 'ann', retention_state: 'Archived' };
    expect(() => readRetainedItem(user)).toThrow(/DeviceUser item .* retention_state: /);
  });
});
