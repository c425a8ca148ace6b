import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../lib/csv.ts';
import {
  falsePositiveBars,
  OUTSTANDING_COLUMNS,
  outstandingByAge,
  periodNote,
  POLICY_OUTCOME_COLUMNS,
  REVIEWER_COLUMNS,
  TERM_OUTCOME_COLUMNS,
  type OutcomeRow,
  type OutstandingRow,
  type TermOutcomeRow,
} from './report-tables.ts';

const outstanding: OutstandingRow[] = [
  { device_user_reference: 'du-1', device_user_name: 'Alice Archer', policy_reference: 'conduct', open: 2, claimed: 1, escalated: 0, overdue: 1, age_days: { '0-7': 1, '8-30': 1, '31+': 1 }, oldest_raised_at: '2026-10-01T09:00:00.000Z' },
  { device_user_reference: 'du-1', device_user_name: 'Alice Archer', policy_reference: 'calls-5', open: 1, claimed: 0, escalated: 0, overdue: 0, age_days: { '0-7': 1, '8-30': 0, '31+': 0 } },
  { device_user_reference: 'du-2', policy_reference: 'conduct', open: 0, claimed: 0, escalated: 4, overdue: 4, age_days: { '0-7': 0, '8-30': 0, '31+': 4 } },
  { policy_reference: 'conduct', open: 1, claimed: 0, escalated: 0, overdue: 0, age_days: { '0-7': 1, '8-30': 0, '31+': 0 } },
];

const dispositions = { 'No issue': 1, 'False positive': 3, 'Issue – reported': 0, 'Issue – actioned': 0 };

describe('the outstanding report', () => {
  it('exports exactly the rows shown, people by name, with their age buckets', () => {
    expect(toCsv(OUTSTANDING_COLUMNS, outstanding).split('\r\n')).toEqual([
      'Person,Device user,Policy,Open,Claimed,Escalated,Overdue,0–7 days,8–30 days,31 days or more,Oldest raised',
      'Alice Archer,du-1,conduct,2,1,0,1,1,1,1,2026-10-01T09:00:00.000Z',
      'Alice Archer,du-1,calls-5,1,0,0,0,1,0,0,',
      'du-2,du-2,conduct,0,0,4,4,0,0,4,',
      'No device user,,conduct,1,0,0,0,1,0,0,',
      '',
    ]);
  });

  it('stacks each person by age across policies, the oldest work first', () => {
    expect(outstandingByAge(outstanding)).toEqual([
      { label: 'du-2', values: [0, 0, 4] },
      { label: 'Alice Archer (du-1)', values: [2, 1, 1] },
      { label: 'No device user', values: [1, 0, 0] },
    ]);
  });
});

describe('the outcomes report', () => {
  const policies: OutcomeRow[] = [
    { policy_reference: 'conduct', hits: 9, closed: 4, dispositions, false_positive_share: 0.75 },
    { policy_reference: 'calls-5', hits: 2, closed: 0, dispositions: { ...dispositions, 'No issue': 0, 'False positive': 0 } },
  ];
  const terms: TermOutcomeRow[] = [{ ...policies[0]!, term: '=HYPERLINK("x"), "guarantee"' }];

  it('writes each disposition and the false-positive share (empty when nothing is closed)', () => {
    expect(toCsv(POLICY_OUTCOME_COLUMNS, policies).split('\r\n')).toEqual([
      'Policy,Hits,Closed,No issue,False positive,Issue – reported,Issue – actioned,False positive share',
      'conduct,9,4,1,3,0,0,75.0 %',
      'calls-5,2,0,0,0,0,0,',
      '',
    ]);
  });

  it('keeps a term that looks like a formula as text, quoted', () => {
    expect(toCsv(TERM_OUTCOME_COLUMNS, terms).split('\r\n')[1]).toBe(`conduct,"'=HYPERLINK(""x""), ""guarantee""",9,4,1,3,0,0,75.0 %`);
  });

  it('draws the share as bars only where something is closed', () => {
    expect(falsePositiveBars(policies, (row) => row.policy_reference)).toEqual([{ label: 'conduct', value: 75 }]);
  });
});

describe('the reviewers report', () => {
  it('names reviewers as the record kept them and rounds the median to a tenth of an hour', () => {
    const rows = [
      { reviewer: 'u-1', reviewer_actor: { kind: 'user' as const, reference: 'u-1', name: 'Rita Reviewer', email: 'rita@example.com' }, closed: 12, median_hours_to_close: 5.26 },
      { reviewer: 'u-legacy', closed: 1, median_hours_to_close: 0 },
    ];
    expect(toCsv(REVIEWER_COLUMNS, rows).split('\r\n')).toEqual(['Reviewer,Items closed,Median hours to close', 'Rita Reviewer (rita@example.com),12,5.3', 'u-legacy,1,0', '']);
  });
});

describe('what each report counts over the period', () => {
  it('says it as the server reads it: outstanding not defaulted, the others the last 30 days', () => {
    expect(periodNote('outstanding', {})).toBe('Items not closed now, raised at any time.');
    expect(periodNote('outcomes', {})).toBe("Items whose recording's time is in the last 30 days.");
    expect(periodNote('reviewers', {})).toBe('Items closed in the last 30 days.');
    expect(periodNote('reviewers', { from: '2026-10-01', to: '2026-10-31' })).toBe('Items closed from 1 Oct 2026 to 31 Oct 2026 (UTC days, both ends included).');
    expect(periodNote('outcomes', { to: '2026-10-31' })).toBe("Items whose recording's time is up to 31 Oct 2026 (UTC days, both ends included).");
  });
});
