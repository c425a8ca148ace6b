import { describe, expect, it } from 'vitest';
import { hoursProblems, hoursRequestOf, hoursValuesOf } from './settings-model.ts';

const stored = { client: 'demo', user_group: 'north', role: 'reviewer', cidr_ranges: ['10.0.0.0/8'], completeness_grace_hours: 24, silent_device_hours: 24 };

describe('completeness hours form', () => {
  it('sends the other defaults back as read, so saving the hours changes nothing else', () => {
    expect(hoursRequestOf(stored, { completeness_grace_hours: 6, silent_device_hours: 48 })).toEqual({
      user_group: 'north',
      role: 'reviewer',
      cidr_ranges: ['10.0.0.0/8'],
      completeness_grace_hours: 6,
      silent_device_hours: 48,
    });
    expect(hoursRequestOf({ client: 'demo', cidr_ranges: [], completeness_grace_hours: 24, silent_device_hours: 24 }, hoursValuesOf(stored))).toEqual({
      cidr_ranges: [],
      completeness_grace_hours: 24,
      silent_device_hours: 24,
    });
  });

  it('refuses blank, fractional and out-of-bounds hours with the field’s path, as the server does', () => {
    expect(hoursProblems({ completeness_grace_hours: 1, silent_device_hours: 336 })).toEqual([]);
    expect(hoursProblems({ completeness_grace_hours: '', silent_device_hours: 337 })).toEqual([
      'body.completeness_grace_hours: Must be a number between 1 and 336',
      'body.silent_device_hours: Must be a number between 1 and 336',
    ]);
    expect(hoursProblems({ completeness_grace_hours: 0, silent_device_hours: 1.5 })).toHaveLength(2);
  });
});
