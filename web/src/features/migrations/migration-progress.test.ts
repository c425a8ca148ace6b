import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../lib/format.ts';
import { counterRowsOf, outcomeWordsOf, progressOf, startOffer } from './migration-progress.ts';

describe('migration progress', () => {
  it('shows bytes read of the total and rows while importing', () => {
    const view = progressOf({
      migration_state: 'Pending',
      started_at: '2026-11-24T10:00:00Z',
      progress: { rows_read: 1200, bytes_read: 1_500_000, bytes_total: 3_000_000, updated_at: '2026-11-24T10:01:00Z' },
    });
    expect(view).toEqual({ percent: 50, words: '1,200 rows read · 1.5 MB of 3 MB' });
  });

  it('says what a migration waits for before the job has read a row', () => {
    expect(progressOf({ migration_state: 'Pending' }).words).toBe('Waiting for the file and the start of its import');
    expect(progressOf({ migration_state: 'Pending', started_at: '2026-11-24T10:00:00Z' }).words).toBe('Import starting');
    expect(progressOf({ migration_state: 'Failed' })).toEqual({ words: 'No rows read' });
  });

  it('fills the bar once the migration has ended, even if it stopped short of the last byte', () => {
    const view = progressOf({ migration_state: 'Failed', progress: { rows_read: 1, bytes_read: 10, bytes_total: 100, updated_at: '2026-11-24T10:01:00Z' } });
    expect(view.percent).toBe(100);
  });

  it('lists every entity counter, missing ones as zero', () => {
    expect(counterRowsOf({ devices_total: 4, devices_new_or_updated: 3, payloads_total: 2 })).toEqual([
      { label: 'Groups', total: 0, newOrUpdated: 0 },
      { label: 'Device users', total: 0, newOrUpdated: 0 },
      { label: 'Devices', total: 4, newOrUpdated: 3 },
      { label: 'Recordings', total: 2, newOrUpdated: 0 },
    ]);
  });

  it('sums the summaries into one line', () => {
    expect(
      outcomeWordsOf({
        imported: [{ type: 'GroupAdded', count: 2 }, { type: 'PayloadCreated', count: 3 }],
        import_warnings: [{ type: 'PayloadAlreadyLoaded', count: 1 }],
        import_errors: [],
      }),
    ).toBe('0 errors · 1 warning · 5 imported');
  });

  it('formats sizes in powers of 1000', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1_500_000_000)).toBe('1.5 GB');
  });
});

describe('startOffer', () => {
  const now = new Date('2026-11-24T10:30:00Z');
  it('offers to start a Pending migration whose import never started', () => {
    expect(startOffer({ migration_state: 'Pending' }, now)).toBe('start');
  });
  it('offers to resume an import with no word from its job for over six minutes, nothing while it reports', () => {
    const progress = { rows_read: 10, bytes_read: 10, bytes_total: 100, updated_at: '2026-11-24T10:20:00Z' };
    expect(startOffer({ migration_state: 'Pending', started_at: '2026-11-24T10:00:00Z', progress }, now)).toBe('resume');
    expect(startOffer({ migration_state: 'Pending', started_at: '2026-11-24T10:00:00Z', progress: { ...progress, updated_at: '2026-11-24T10:29:00Z' } }, now)).toBeUndefined();
  });
  it('offers nothing once the migration has ended', () => {
    expect(startOffer({ migration_state: 'Migrated', started_at: '2026-11-24T09:00:00Z' }, now)).toBeUndefined();
  });
});
