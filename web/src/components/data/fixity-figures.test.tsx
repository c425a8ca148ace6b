import { describe, expect, it } from 'vitest';
import type { IntegrityCheck } from '#shared/contract/entities/integrity.ts';
import { renderSignedIn, userWith } from '../../testing/render-signed-in.tsx';
import { cycleWords, failureCounts, FixityFigures } from './fixity-figures.tsx';

const check: IntegrityCheck = {
  client: 'demo',
  check_id: 'c-1',
  started_at: '2026-11-28T03:00:00.000Z',
  finished_at: '2026-11-28T03:04:00.000Z',
  objects_checked: 120,
  objects_verified: 2,
  bytes_verified: 1_500_000,
  failures_missing: 1,
  failures_changed: 2,
  failures_unreadable: 0,
  failures: [
    { payload_reference: 'p-changed', kind: 'changed', alert_reference: 'a-1' },
    { payload_reference: 'p-missing', kind: 'missing', alert_reference: 'a-2' },
  ],
  cycle_days: 90,
  cycle_started_at: '2026-09-01T03:00:00.000Z',
  cycle_objects_read: 37,
  stored_objects: 120,
  cycle_progress: 37 / 120,
  budget_reached: true,
};

const links = (reference: string, label: unknown) => <a href={`/alerts/${reference}`}>{String(label)}</a>;

describe('a fixity run\'s figures', () => {
  it('counts failures by kind, exactly, leaving out kinds that did not fail', () => {
    expect(failureCounts(check)).toEqual([
      { kind: 'changed', count: 2, words: '2 recordings changed' },
      { kind: 'missing', count: 1, words: '1 recording missing' },
    ]);
    expect(failureCounts({ ...check, failures_missing: 0, failures_changed: 0 })).toEqual([]);
  });

  it('says the cycle\'s progress with its share and start', () => {
    expect(cycleWords(check)).toBe('37 of 120 stored recordings read in full (30%) in the cycle started 1 Sept 2026');
  });

  it('shows the run, the bytes in readable units, the bar\'s share and a link to each failure\'s alert', () => {
    const html = renderSignedIn(<FixityFigures check={check} alertLink={links} />, userWith([]));
    expect(html).toContain('2 recordings changed, 1 recording missing');
    expect(html).toContain('1.5 MB');
    expect(html).toContain('28 Nov 2026, 03:04');
    expect(html).toContain('aria-valuenow="30"');
    expect(html).toContain('href="/alerts/a-1"');
    expect(html).toContain('href="/alerts/a-2"');
    // Three failures counted, two listed: the list says it is the first ones only.
    expect(html).toContain('The first 2 failing recordings are listed');
    expect(html).toContain('reading budget');
  });
});
