import { describe, expect, it } from 'vitest';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import type { SupervisionItemStored } from '#core/store/entities/supervision-item.ts';
import { ageBucket, median, outcomesReport, outstandingReport, reviewersReport } from './report-rows.ts';

const NOW = new Date('2026-03-31T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const hit = (policy: string, term?: string): SupervisionHit => ({ policy_reference: policy, kind: term === undefined ? 'Sampling' : 'Lexicon', ...(term === undefined ? { sample_value: 0.01 } : { term }), matches: [], raised_at: daysAgo(1) });

let counter = 0;
function item(fields: Partial<SupervisionItemStored>): SupervisionItemStored {
  const hits = fields.hits ?? [hit('p1', 'guarantee')];
  return {
    item_reference: `I${++counter}`,
    payload_type: 'SMS',
    payload_time: daysAgo(2),
    hits,
    policy_references: [...new Set(hits.map((one) => one.policy_reference))],
    state: 'Open',
    due_at: daysAgo(-5),
    raised_at: daysAgo(1),
    updated_at: daysAgo(1),
    item_version: 1,
    ...fields,
  };
}

describe('supervision reports', () => {
  it('buckets age by whole days since raised, and takes the median of even and odd counts', () => {
    expect([0, 7, 8, 30, 31].map((days) => ageBucket(daysAgo(days), NOW))).toEqual(['0-7', '0-7', '8-30', '8-30', '31+']);
    expect(median([])).toBe(0);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('counts outstanding work per person and policy by state, overdue and age, an item under each policy that hit it', () => {
    const items = [
      item({ device_user_reference: 'ann', device_user_name: 'Ann', raised_at: daysAgo(40), due_at: daysAgo(33) }),
      item({ device_user_reference: 'ann', device_user_name: 'Ann', state: 'Claimed', raised_at: daysAgo(10) }),
      item({ device_user_reference: 'ann', device_user_name: 'Ann', state: 'Escalated', hits: [hit('p1', 'promise'), hit('p2')] }),
      item({ device_user_reference: 'ann', state: 'Closed', disposition: 'No issue' }),
      item({ device_user_reference: 'bob', device_user_name: 'Bob' }),
    ];
    expect(outstandingReport(items, NOW).rows).toEqual([
      { device_user_reference: 'ann', device_user_name: 'Ann', policy_reference: 'p1', open: 1, claimed: 1, escalated: 1, overdue: 1, age_days: { '0-7': 1, '8-30': 1, '31+': 1 }, oldest_raised_at: daysAgo(40) },
      { device_user_reference: 'ann', device_user_name: 'Ann', policy_reference: 'p2', open: 0, claimed: 0, escalated: 1, overdue: 0, age_days: { '0-7': 1, '8-30': 0, '31+': 0 }, oldest_raised_at: daysAgo(1) },
      { device_user_reference: 'bob', device_user_name: 'Bob', policy_reference: 'p1', open: 1, claimed: 0, escalated: 0, overdue: 0, age_days: { '0-7': 1, '8-30': 0, '31+': 0 }, oldest_raised_at: daysAgo(1) },
    ]);
  });

  it('counts outcomes per policy and term once per item, with the false-positive share of those closed', () => {
    const items = [
      item({ hits: [hit('p1', 'guarantee'), hit('p1', 'promise')], state: 'Closed', disposition: 'False positive', closed_at: daysAgo(0) }),
      item({ hits: [hit('p1', 'guarantee')], state: 'Closed', disposition: 'Issue – reported', closed_at: daysAgo(0) }),
      item({ hits: [hit('p1', 'guarantee')] }),
      item({ hits: [hit('s1')] }),
    ];
    const report = outcomesReport(items);
    expect(report.policies).toEqual([
      { policy_reference: 'p1', hits: 3, closed: 2, dispositions: { 'No issue': 0, 'False positive': 1, 'Issue – reported': 1, 'Issue – actioned': 0 }, false_positive_share: 0.5 },
      { policy_reference: 's1', hits: 1, closed: 0, dispositions: { 'No issue': 0, 'False positive': 0, 'Issue – reported': 0, 'Issue – actioned': 0 } },
    ]);
    expect(report.terms.map((row) => [row.policy_reference, row.term, row.hits, row.closed, row.false_positive_share])).toEqual([
      ['p1', 'guarantee', 3, 2, 0.5],
      ['p1', 'promise', 1, 1, 1],
    ]);
  });

  it('counts each closing reviewer and the median hours from raising to closing', () => {
    const closed = (by: string, hours: number) =>
      item({ state: 'Closed', disposition: 'No issue', raised_at: daysAgo(1), closed_at: new Date(Date.parse(daysAgo(1)) + hours * 3_600_000).toISOString(), closed_by: by, closed_by_actor: { reference: by, kind: 'user', name: by.toUpperCase() } });
    const report = reviewersReport([closed('ann', 2), closed('ann', 10), closed('ann', 4), closed('bob', 1), item({})]);
    expect(report.rows).toEqual([
      { reviewer: 'ann', reviewer_actor: { reference: 'ann', kind: 'user', name: 'ANN' }, closed: 3, median_hours_to_close: 4 },
      { reviewer: 'bob', reviewer_actor: { reference: 'bob', kind: 'user', name: 'BOB' }, closed: 1, median_hours_to_close: 1 },
    ]);
  });
});
