import { describe, expect, it } from 'vitest';
import { payloadFloor, recordFloor, regulatoryFloorProblems } from './regulatory-rules.ts';

describe('regulatory floor', () => {
  it('names the rule and the floor on each period shorter than the strictest chosen rule', () => {
    const problems = regulatoryFloorProblems(
      {
        SupervisionData: { delete_after_days: 2000 },
        CaptureLedgerData: { destroy_after_days: 1500 },
        PayloadData: [
          { payload_type: 'Call', delete_after_days: 1000, destroy_after_days: 1100 },
          { payload_type: 'Diagnostics', delete_after_days: 1 },
        ],
      },
      ['SEC_17a_4', 'FINRA_4511', 'MIFID_II'],
    );
    expect(problems).toEqual([
      'body.CaptureLedgerData.destroy_after_days: MiFID II keeps communications at least 1,827 days',
      'body.SupervisionData.delete_after_days: FINRA 4511 keeps supervisory reviews at least 2,192 days',
      'body.PayloadData.0.delete_after_days: MiFID II keeps communications at least 1,827 days',
    ]);
  });

  it('refuses nothing without a rule, at the floor exactly, or for a type kept without end', () => {
    expect(regulatoryFloorProblems({ PayloadData: [{ payload_type: 'SMS', delete_after_days: 1 }] }, [])).toEqual([]);
    expect(regulatoryFloorProblems({ PayloadData: [{ payload_type: 'SMS', delete_after_days: 1096 }], GpsData: { delete_after_days: 1 } }, ['SEC_17a_4'])).toEqual([]);
    expect(regulatoryFloorProblems({ LegacyMigrationData: {} }, ['MIFID_II'])).toEqual([]);
  });

  it('answers the strictest floor of several rules, and none where no rule covers the type', () => {
    expect(payloadFloor(['SEC_17a_4'], 'Call')).toEqual({ days: 1096, rule: 'SEC_17a_4', covers: 'communications' });
    expect(payloadFloor(['SEC_17a_4', 'MIFID_II'], 'Call')?.rule).toBe('MIFID_II');
    expect(payloadFloor(['MIFID_II'], 'Diagnostics')).toBeUndefined();
    expect(recordFloor(['SEC_17a_4'], 'SupervisionData')).toBeUndefined();
    expect(recordFloor(['FINRA_4511'], 'GpsData')).toBeUndefined();
  });
});
