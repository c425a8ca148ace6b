import { describe, expect, it } from 'vitest';
import { legacyDefaults } from './account-defaults.ts';

describe('legacyDefaults', () => {
  it('keeps the fields that pass today’s rules and drops the rest', () => {
    expect(legacyDefaults('demo', { user_group: '*', role: 'reviewer', cidr_ranges: ['10.0.0.0/8'] })).toEqual({
      client: 'demo',
      role: 'reviewer',
      cidr_ranges: ['10.0.0.0/8'],
    });
  });

  it('answers empty defaults for missing or hostile values', () => {
    for (const value of [undefined, null, 'x', 42, { role: { $ne: 1 }, cidr_ranges: 'all' }]) {
      expect(legacyDefaults('demo', value)).toEqual({ client: 'demo', cidr_ranges: [] });
    }
  });
});
