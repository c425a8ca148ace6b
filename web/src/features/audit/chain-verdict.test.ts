import { describe, expect, it } from 'vitest';
import { chainVerdict } from './chain-verdict.ts';

const NOW = Date.parse('2026-11-24T10:00:00Z');
const base = { linked_count: 10, pending_count: 0, head_sequence: 10, head_hash: 'a'.repeat(64), last_checkpoint_at: null, oldest_pending_at: null };

describe('chain verdict', () => {
  it('is up to date when nothing waits', () => {
    expect(chainVerdict(base, NOW)).toMatchObject({ label: 'Up to date', colour: 'teal' });
    expect(chainVerdict({ ...base, linked_count: 0, head_sequence: 0 }, NOW).sentence).toBe('No records yet.');
  });

  it('is linking while records have waited briefly, and warns once they have waited long', () => {
    expect(chainVerdict({ ...base, pending_count: 2, oldest_pending_at: '2026-11-24T09:59:00Z' }, NOW).label).toBe('Linking');
    expect(chainVerdict({ ...base, pending_count: 2, oldest_pending_at: '2026-11-24T09:30:00Z' }, NOW)).toMatchObject({ label: 'Waiting too long', colour: 'red' });
  });
});
