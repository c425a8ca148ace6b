import { describe, expect, it } from 'vitest';
import { renderSignedIn, userWith } from '../../../testing/render-signed-in.tsx';
import { ApplyProgress, applyCounts } from './apply-progress.tsx';

const run = { state: 'Running' as const, from: '2026-10-01T00:00:00.000Z', to: '2026-10-31T23:59:59.999Z', started_at: '2026-11-28T10:00:00.000Z', started_by: 'u-1', scanned: 1204, raised: 1 };

describe('an apply run’s progress', () => {
  it('says what was scanned and raised, in words', () => {
    expect(applyCounts(run)).toBe('Scanned 1,204 recordings, raised 1 item');
    expect(applyCounts({ ...run, scanned: 1, raised: 0 })).toBe('Scanned 1 recording, raised 0 items');
  });

  it('moves (striped, announced) while running and stands still once completed', () => {
    const running = renderSignedIn(<ApplyProgress run={run} />, userWith([]));
    expect(running).toContain('aria-label="Apply to 1 Oct 2026 – 31 Oct 2026: Scanned 1,204 recordings, raised 1 item"');
    expect(running).toContain('data-striped="true"');
    expect(running).toContain('aria-live="polite"');
    const done = renderSignedIn(<ApplyProgress run={{ ...run, state: 'Completed', finished_at: '2026-11-28T10:05:00.000Z' }} />, userWith([]));
    expect(done).not.toContain('data-striped="true"');
    expect(done).toContain('Completed');
  });
});
