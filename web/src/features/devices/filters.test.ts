import { describe, expect, it } from 'vitest';
import { compactQuery, invertedRange } from '../../lib/search-params.ts';
import { DeviceLogsSearch, DevicesSearch } from './filters.ts';

describe('device search schemas', () => {
  it('keep good values and drop junk instead of failing', () => {
    expect(DevicesSearch.parse({ active_only: true, search: 'bram', service: 'sms', group: 123 })).toEqual({
      active_only: true,
      group: '123',
      search: 'bram',
      service: 'sms',
    });
    expect(DevicesSearch.parse({ active_only: 'yes', service: 'fax', search: '' })).toEqual({});
    expect(DeviceLogsSearch.parse({ log_level: 'WARN', from: '2026-11-01', to: 'soon' })).toEqual({
      log_level: 'WARN',
      from: '2026-11-01',
    });
    expect(DeviceLogsSearch.parse({ log_level: 'LOUD' })).toEqual({});
  });
});

describe('compactQuery', () => {
  it('leaves out unset and blank values and trims the rest', () => {
    expect(compactQuery({ search: '  bram ', group: '', device_user_reference: undefined, service: 'sms' })).toEqual({
      search: 'bram',
      service: 'sms',
    });
  });
});

describe('invertedRange', () => {
  it('is true only when both ends are set and the start is after the end', () => {
    expect(invertedRange('2026-11-02', '2026-11-01')).toBe(true);
    expect(invertedRange('2026-11-01', '2026-11-01')).toBe(false);
    expect(invertedRange('2026-11-02', undefined)).toBe(false);
  });
});
