import { describe, expect, it } from 'vitest';
import { activationBody, checkDeviceUserForm, deviceUserName, EMPTY_DEVICE_USER_FORM, formValuesOf } from './device-user-form-model.ts';

const valid = {
  ...EMPTY_DEVICE_USER_FORM,
  reference: 'ada-1',
  group: 'sales',
  services: ['calls' as const],
  email: 'ada@example.test',
  firstName: 'Ada',
  surname: 'Lovelace',
};

describe('checkDeviceUserForm', () => {
  it('accepts a complete form and builds the request body', () => {
    const result = checkDeviceUserForm(valid);
    expect(result).toEqual({
      ok: true,
      reference: 'ada-1',
      body: {
        group: 'sales',
        services: ['calls'],
        expected_device_count: 1,
        email: 'ada@example.test',
        first_name: 'Ada',
        surname: 'Lovelace',
        is_active: true,
      },
    });
  });

  it('reports every problem as a path: message line, as the server would', () => {
    const result = checkDeviceUserForm({ ...EMPTY_DEVICE_USER_FORM, reference: ' x', expectedDeviceCount: '-1', email: 'nope', firstName: 'A,b' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.lines).toContain('params.device_user_reference: Must be between 3 and 60 characters');
    expect(result.lines).toContain('body.services: Must contain at least 1 item');
    expect(result.lines).toContain('body.email: Must be a valid email address');
    expect(result.lines).toContain('body.first_name: Cannot start with leading space, cannot contain a comma');
    expect(result.lines).toContain('body.expected_device_count: Must be at least 0');
    expect(result.lines.some((line) => line.startsWith('body.group: '))).toBe(true);
  });

  it('defaults the expected device count when left empty', () => {
    const result = checkDeviceUserForm({ ...valid, expectedDeviceCount: '' });
    expect(result.ok && result.body.expected_device_count).toBe(1);
  });
});

describe('names and activation', () => {
  const user = {
    device_user_reference: 'ada-1',
    group: 'sales',
    services: ['calls' as const],
    expected_device_count: 2,
    email: 'ada@example.test',
    first_name: 'Ada',
    surname: 'Lovelace',
    is_active: true,
    is_legacy: false,
  };

  it('names a user by first name and surname, else by reference', () => {
    expect(deviceUserName(user)).toBe('Ada Lovelace');
    expect(deviceUserName({ device_user_reference: 'u-9' })).toBe('u-9');
  });

  it('offboards by sending the same fields with is_active false', () => {
    const result = activationBody(user, false);
    expect(result.ok && result.body).toMatchObject({ is_active: false, expected_device_count: 2, group: 'sales' });
    expect(formValuesOf(user).expectedDeviceCount).toBe('2');
  });
});

describe('serviceLabel', () => {
  it('capitalises words and upper-cases acronyms', async () => {
    const { serviceLabel } = await import('./device-user-form-model.ts');
    expect(serviceLabel('calls')).toBe('Calls');
    expect(serviceLabel('sms')).toBe('SMS');
  });
});
