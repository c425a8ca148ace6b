import { describe, expect, it } from 'vitest';
import { ConditionFailedError, type TableItem, type WriteCondition } from '#core/ports/table-store.ts';
import { phoneNumberToItem } from '#core/store/entities/phone-number.ts';
import type { DisposalItem } from '#core/store/entities/disposal.ts';
import { keys } from '#core/store/keys.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { fromState } from '../dispose.ts';
import { dueMarkerItems, dueMarkerSync } from '../due-index.ts';
import { deletePasses, destroyPasses, rulesOf } from '../retention-rules.ts';
import { deviceUserChanges } from './device-user.ts';

const now = new Date('2026-06-01T00:00:00.000Z');
const [rule] = rulesOf({ LegalHoldData: { delete_after_days: 1, destroy_after_days: 2 } }).filter((one) => one.recordType === 'LegalHoldData');
const [deletion] = deletePasses(rule!, now);
const [destruction] = destroyPasses(rule!, now);
const disposal = { disposed_at: now.toISOString() } as DisposalItem;

const hold = (fields: Record<string, unknown>): TableItem => ({ ...keys.legalHold.item('acme', 'DeviceUser', 'ann'), client: 'acme', target_type: 'DeviceUser', target: 'ann', created_at: '2026-01-01T00:00:00.000Z', ...fields });
const user = (fields: Record<string, unknown>): TableItem => ({
  ...keys.deviceUser.item('acme', 'ann', 'team'),
  client: 'acme',
  device_user_reference: 'ann',
  group: 'team',
  services: ['calls'],
  email: 'ann@example.com',
  first_name: 'Ann',
  surname: 'Lee',
  updated_at: '2026-02-01T00:00:00.000Z',
  ...fields,
});

describe('records with a life of their own', () => {
  it('marks a hold from its release only, and takes the marker away when it is placed again', () => {
    expect(dueMarkerItems('acme', hold({ is_active: true, updated_at: '2026-02-01T00:00:00.000Z' }))).toEqual([]);
    const released = dueMarkerItems('acme', hold({ is_active: false, updated_at: '2026-03-01T00:00:00.000Z', sync_state: 'Syncing' }));
    expect(released.map((marker) => [marker.record_type, marker.reference, marker.base_time, marker.stage])).toEqual([['LegalHoldData', 'DeviceUser/ann', '2026-03-01T00:00:00.000Z', 'LIVE']]);
    expect(dueMarkerSync('acme', hold({ is_active: true, updated_at: '2026-04-01T00:00:00.000Z' }))).toEqual([{ kind: 'delete', key: { pk: released[0]?.pk, sk: released[0]?.sk } }]);
  });

  it('leaves a released hold alone while its walk over the objects is going or failed', () => {
    const released = { is_active: false, updated_at: '2026-03-01T00:00:00.000Z' };
    expect(fromState(hold({ ...released, sync_state: 'Syncing' }), deletion!)).toBe('active');
    expect(fromState(hold({ ...released, sync_state: 'Failed' }), deletion!)).toBe('active');
    expect(typeof fromState(hold({ ...released, sync_state: 'Synced' }), deletion!)).toBe('object');
    expect(fromState(hold({ is_active: true, updated_at: '2026-03-01T00:00:00.000Z' }), deletion!)).toBe('active');
  });

  it('counts the other types from their end, and not before', () => {
    const at = '2026-03-01T00:00:00.000Z';
    const support = (state: string) => ({ ...keys.supportAccess.item('acme', 'r1', state), client: 'acme', request_reference: 'r1', approval_state: state, updated_at: at });
    const transfer = (state: string, completed?: string) => ({ ...keys.transfer.item('acme', 't1'), client: 'acme', transfer_id: 't1', transfer_state: state, ...(completed ? { completed_at: completed } : {}) });
    const migration = (state: string, ended?: string) => ({ ...keys.migration.item('acme', 'm1'), client: 'acme', migration_reference: 'm1', migration_state: state, ...(ended ? { migrated_at: ended } : {}) });
    const kinds = (item: TableItem) => dueMarkerItems('acme', item).map((marker) => `${String(marker.record_type)} ${String(marker.base_time)}`);
    for (const state of ['canceled', 'rejected', 'revoked', 'expired']) expect(kinds(support(state))).toEqual([`SupportAccessData ${at}`]);
    for (const state of ['pending', 'approved']) expect(kinds(support(state))).toEqual([]);
    for (const state of ['Succeeded', 'PartialFail', 'Failed']) expect(kinds(transfer(state, at))).toEqual([`TransferableData ${at}`]);
    expect([...kinds(transfer('Pending')), ...kinds(transfer('InProgress'))]).toEqual([]);
    for (const state of ['Migrated', 'PartialFail', 'Failed', 'Quarantined']) expect(kinds(migration(state, at))).toEqual([`LegacyMigrationData ${at}`]);
    expect(kinds(migration('Pending'))).toEqual([]);
    expect(kinds(user({ is_active: false, offboard_date: at }))).toEqual([`DeviceUserData ${at}`]);
    expect(kinds(user({ is_active: true }))).toEqual([]);
  });

  it('destroys a device user by removing the person, on the user as read, leaving the dashboard once', async () => {
    const condition: WriteCondition = { kind: 'expression', expression: '#state = :state', names: { '#state': 'retention_state' }, values: { ':state': 'Deleted' } };
    const deleted = user({ is_active: false, offboard_date: '2026-03-01T00:00:00.000Z', retention_state: 'Deleted' });
    const [change, ...rest] = await deviceUserChanges.change({ table: createMemoryTable() } as never, 'acme', deleted, { action: destruction!.action, condition, disposal });
    expect(change).toMatchObject({
      kind: 'update',
      update: { set: { retention_state: 'Destroyed', destroyed_at: now.toISOString(), updated_by: 'retention' }, remove: ['first_name', 'surname', 'email'] },
      condition: { expression: '(#state = :state) AND #active = :offboarded AND #updated = :updated', values: { ':updated': '2026-02-01T00:00:00.000Z', ':offboarded': false } },
    });
    // Deleted earlier: it left the dashboard's counts then.
    expect(rest).toEqual([]);
    // Straight from live (a rule that never deletes): it leaves the offboarded count now, the tenant's and its group's.
    const live = user({ is_active: false, offboard_date: '2026-03-01T00:00:00.000Z' });
    const [, ...counters] = await deviceUserChanges.change({ table: createMemoryTable() } as never, 'acme', live, { action: destruction!.action, condition, disposal });
    expect(counters.map((operation) => (operation.kind === 'update' ? operation.update.add : undefined))).toEqual([{ usr_offboarded: -1 }, { usr_offboarded: -1 }]);
  });

  it('destroys the numbers that still name the person, each on that condition, found by their list and their devices', async () => {
    const condition: WriteCondition = { kind: 'item-exists' };
    const table = createMemoryTable([
      phoneNumberToItem('acme', { phone_number: '+441', device_user_reference: 'ann' }),
      // From before the numbers list (no index key), recorded on her device; and one her device reported, now Bob's.
      { ...keys.phoneNumber.item('acme', '+442'), phone_number: '+442', device_user_reference: 'ann' },
      phoneNumberToItem('acme', { phone_number: '+443', device_user_reference: 'bob' }),
      phoneNumberToItem('other', { phone_number: '+441', device_user_reference: 'ann' }),
      { ...keys.device.item('acme', 'd1', 'ann'), device_reference: 'd1', device_user_reference: 'ann', is_deactivated: true, phone_numbers: [{ phone_number: '+442', slot_index: 0 }, { phone_number: '+443', slot_index: 1 }] },
    ]);
    const destroyed = user({ is_active: false, offboard_date: '2026-03-01T00:00:00.000Z', retention_state: 'Deleted' });
    const [, ...numbers] = await deviceUserChanges.change({ table } as never, 'acme', destroyed, { action: destruction!.action, condition, disposal });
    expect(numbers.map((operation) => (operation.kind === 'delete' ? operation.key.pk : undefined)).sort()).toEqual([keys.phoneNumber.key('acme', '+441').pk, keys.phoneNumber.key('acme', '+442').pk]);
    for (const operation of numbers) expect(operation).toMatchObject({ condition: { expression: '#user = :user', values: { ':user': 'ann' } } });
    // Taken by Bob between the read and the write: the disposal is refused, and his number stays.
    await table.put(phoneNumberToItem('acme', { phone_number: '+441', device_user_reference: 'bob' }));
    await expect(table.transactWrite(numbers)).rejects.toThrow(ConditionFailedError);
    expect(await table.get(keys.phoneNumber.key('acme', '+441'))).toMatchObject({ device_user_reference: 'bob' });
  });
});
