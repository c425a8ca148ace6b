import { describe, expect, it } from 'vitest';
import type { LegalHold } from '#shared/contract/entities/account-data.ts';
import { coverageLines, isSyncing, syncProgress } from './hold-model.ts';

const hold = (patch: Partial<LegalHold>): LegalHold => ({ target: 'du-bram', target_type: 'DeviceUser', is_active: true, created_at: '2026-11-24T09:00:00.000Z', ...patch });

describe('a legal hold in words', () => {
  it('names what it covers, saying "more than" where counting stopped', () => {
    const lines = coverageLines(
      hold({ coverage: { recordings: { count: 12, capped: false }, gps_fixes: { count: 1000, capped: true }, devices: { count: 1, capped: false } } }),
    );
    expect(lines).toEqual(['12 recordings', 'more than 1,000 GPS fixes', '1 device']);
    expect(coverageLines(hold({ is_active: false }))).toEqual([]);
  });

  it('shows the storage locks progressing against the recordings it covers, and why a walk stopped', () => {
    const syncing = hold({ sync_state: 'Syncing', objects_synced: 30, coverage: { recordings: { count: 120, capped: false } } });
    expect(isSyncing(syncing)).toBe(true);
    expect(syncProgress(syncing)).toEqual({ state: 'syncing', label: 'Locking recordings: 30 of 120', percent: 25 });
    expect(syncProgress(hold({ sync_state: 'Syncing', objects_synced: 5, coverage: { recordings: { count: 1000, capped: true } } }))?.label).toBe('Locking recordings: 5 so far');
    expect(syncProgress(hold({ sync_state: 'Failed', objects_synced: 7, sync_error: 'AccessDenied' }))?.label).toMatch(/^Stopped after 7 recordings: AccessDenied/);
    expect(syncProgress(hold({ sync_state: 'Synced', is_active: false }))).toEqual({ state: 'synced', label: 'Recordings unlocked' });
    expect(syncProgress(hold({ target_type: 'PortalUser' }))).toBeUndefined();
  });
});
