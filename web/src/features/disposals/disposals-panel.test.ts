import { describe, expect, it } from 'vitest';
import type { Disposal } from '#shared/contract/entities/account-data.ts';
import { disposalQueryOf, DisposalSearch } from './disposal-filters.ts';
import { baseText, periodsText } from './disposals-panel.tsx';

const disposal = (policy: Disposal['policy']): Disposal => ({
  disposal_id: '01J0000000000000000000DISP',
  record_type: 'PayloadData',
  payload_type: 'Video',
  reference: '01J0000000000000000000REF1',
  action: 'Deleted',
  disposed_at: '2026-11-24T10:27:00.000Z',
  run_id: '01J0000000000000000000RUN1',
  policy,
});

describe('disposal records', () => {
  it('say the rule they applied and where it counted from', () => {
    const record = disposal({ delete_after_days: 0, destroy_after_days: 2647, retention_timestamp: 'receipt_confirmed_at', base_time: '2026-11-24T10:25:00.000Z' });
    expect(periodsText(record)).toBe('delete after 0 days, destroy after 2,647 days');
    expect(baseText(record)).toMatch(/^counted from receipt confirmed, 24 Nov 2026/);
    expect(baseText(disposal({ destroy_after_days: 456, base_time: '2026-01-01T00:00:00.000Z' }))).toMatch(/^counted from its own time/);
  });

  it('filter by record type, action, days and run; junk in the URL is dropped, blank filters are not sent', () => {
    const search = DisposalSearch.parse({ record_type: 'PayloadData', disposal: 'Destroyed', disposed_from: '2026-11-01', disposed_to: 'yesterday', run_id: ' r1 ' });
    expect(search).toEqual({ record_type: 'PayloadData', disposal: 'Destroyed', disposed_from: '2026-11-01', disposed_to: undefined, run_id: 'r1' });
    expect(disposalQueryOf(search)).toEqual({ from: '2026-11-01', run_id: 'r1', record_type: 'PayloadData', action: 'Destroyed' });
    expect(disposalQueryOf(DisposalSearch.parse({ record_type: 'Nonsense' }))).toEqual({});
  });
});
