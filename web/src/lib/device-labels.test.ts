import { describe, expect, it } from 'vitest';
import { deviceStatus, holderName, phoneNumbersText } from './device-labels.ts';

describe('deviceStatus', () => {
  it('reads deactivated first, then pending (never activated), else active', () => {
    expect(deviceStatus({ is_deactivated: true, activated_at: '2026-01-01T00:00:00Z' })).toBe('Deactivated');
    expect(deviceStatus({ is_deactivated: false, activated_at: undefined })).toBe('Pending');
    expect(deviceStatus({ is_deactivated: false, activated_at: '2026-01-01T00:00:00Z' })).toBe('Active');
  });
});

describe('holderName', () => {
  it('joins the parts it has', () => {
    expect(holderName({ first_name: 'Bram', surname: 'Baker' })).toBe('Bram Baker');
    expect(holderName({ first_name: 'Bram' })).toBe('Bram');
    expect(holderName({})).toBeUndefined();
  });
});

describe('phoneNumbersText', () => {
  it('lists numbers in SIM slot order, the legacy number only when there are none', () => {
    expect(
      phoneNumbersText({
        phone_numbers: [
          { phone_number: '07700900200', slot_index: 1 },
          { phone_number: '07700900102', slot_index: 0 },
        ],
        legacy_phone_number: '0123',
      }),
    ).toBe('07700900102 (slot 1), 07700900200 (slot 2)');
    expect(phoneNumbersText({ phone_numbers: [], legacy_phone_number: '0123' })).toBe('0123 (legacy)');
    expect(phoneNumbersText({ phone_numbers: [] })).toBe('');
  });
});
