import { describe, expect, it } from 'vitest';
import { InternalError } from '../../errors.ts';
import { keys } from '../keys.ts';
import { phoneNumberToItem, readPhoneNumber } from './phone-number.ts';

describe('phone number item', () => {
  it('round-trips with its key', () => {
    const entry = { client: 'acme', phone_number: '+447700900001', device_user_reference: 'du-1', device_reference: 'dev-1', updated_at: '2026-01-02T03:04:05.000Z' };
    const item = phoneNumberToItem('acme', entry);
    expect(item).toMatchObject(keys.phoneNumber.item('acme', '+447700900001'));
    expect(readPhoneNumber(item)).toEqual(entry);
  });

  it('is listed under its device user, per tenant, and moves with the user it names', () => {
    const entry = { phone_number: '+447700900001', device_user_reference: 'du-1' };
    const first = phoneNumberToItem('acme', entry);
    expect(first).toMatchObject({ gsi1pk: keys.phoneNumber.listByDeviceUser('acme', 'du-1').partition, gsi1sk: '+447700900001' });
    expect(phoneNumberToItem('other', entry).gsi1pk).not.toBe(first.gsi1pk);
    expect(phoneNumberToItem('acme', { ...entry, device_user_reference: 'du-2' }).gsi1pk).toBe(keys.phoneNumber.listByDeviceUser('acme', 'du-2').partition);
    expect(keys.phoneNumber.listByDeviceUser('acme', 'du-1').index).toBe('gsi1');
  });

  it('refuses an item that names no device user', () => {
    const item = { ...keys.phoneNumber.item('acme', '+447700900001'), phone_number: '+447700900001' };
    expect(() => readPhoneNumber(item)).toThrow(InternalError);
    expect(() => readPhoneNumber(item)).toThrow(/PhoneNumber item .* device_user_reference: /);
  });
});
