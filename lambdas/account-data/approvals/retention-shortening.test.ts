import { describe, expect, it } from 'vitest';
import { defaultRetention } from '../retention/retention-defaults.ts';
import { retentionShortening } from './retention-shortening.ts';

describe('retentionShortening', () => {
  const current = { ...defaultRetention(), regulatory_rules: ['SEC_17a_4' as const, 'MIFID_II' as const] };

  it('finds nothing in a change that only lengthens, adds a rule or keeps records without end', () => {
    expect(retentionShortening(current, { ...current, GpsData: { delete_after_days: 400, destroy_after_days: 500 }, regulatory_rules: ['SEC_17a_4', 'MIFID_II', 'FINRA_4511'] })).toEqual([]);
    expect(retentionShortening(current, { ...current, AlertData: {} })).toEqual([]);
  });

  it('names each shorter period, a period set where records were kept without end, fewer receipts, and a removed rule', () => {
    const kept = { ...current, AlertData: {} };
    const lines = retentionShortening(kept, {
      ...current,
      GpsData: { delete_after_days: 30, destroy_after_days: 456 },
      PayloadData: current.PayloadData.map((entry) => (entry.payload_type === 'SMS' ? { ...entry, required_receipts: 0 } : entry.payload_type === 'Call' ? { ...entry, delete_after_days: 2000 } : entry)),
      regulatory_rules: ['MIFID_II'],
    });
    expect(lines).toEqual([
      'AlertData: deleted after 1,096 days instead of never',
      'AlertData: destroyed after 1,186 days instead of never',
      'GpsData: deleted after 30 days instead of 366 days',
      'PayloadData Call: deleted after 2,000 days instead of 2,557 days',
      'regulatory_rules: SEC 17a-4 removed (a lower regulatory floor)',
    ]);
  });

  it('counts a type the request leaves out at its default, which may be shorter than what is stored', () => {
    const longer = { ...current, GpsData: { delete_after_days: 1000, destroy_after_days: 1100 } };
    const { GpsData: _left, ...request } = longer;
    expect(retentionShortening(longer, request)).toEqual(['GpsData: deleted after 366 days instead of 1,000 days', 'GpsData: destroyed after 456 days instead of 1,100 days']);
  });

  it('names fewer receipts or transfers demanded of a recording', () => {
    const demanding = { ...current, PayloadData: current.PayloadData.map((entry) => (entry.payload_type === 'SMS' ? { ...entry, required_receipts: 2 } : entry)) };
    expect(retentionShortening(demanding, current)).toEqual(['PayloadData SMS: required_receipts 0 instead of 2']);
  });
});
