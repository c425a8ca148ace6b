import { describe, expect, it } from 'vitest';
import type { Transferable } from '#shared/contract/entities/transfers.ts';
import { formatBytes } from '../../lib/format.ts';
import { progressOf } from './transfer-progress.ts';

const base: Transferable = {
  transfer_id: '01JD0000000000000000000000',
  transfer_config_reference: 'Nightly archive',
  transfer_type: 'Payload',
  created_at: '2026-11-24T10:00:00.000Z',
  transfer_state: 'InProgress',
  transfers: [],
  related_payloads: [],
  payload_count: 4,
};

describe('transfer progress', () => {
  it('counts files and bytes done of the totals, and failures apart', () => {
    const progress = progressOf({ ...base, files_total: 5, files_done: 2, files_failed: 1, bytes_total: 4_000_000, bytes_done: 1_500_000 });
    expect(progress).toEqual({ donePercent: 40, failedPercent: 20, words: '2 of 5 files · 1.5 MB of 4 MB · 1 failed' });
  });

  it('says what a transfer waits for before the job has counted its files', () => {
    expect(progressOf({ ...base, transfer_state: 'Pending' })).toEqual({ words: 'Waiting to start' });
    expect(progressOf(base).donePercent).toBeUndefined();
  });

  it('writes sizes the way file managers do', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(undefined)).toBe('—');
  });
});
