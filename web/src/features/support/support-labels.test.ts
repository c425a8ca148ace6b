import { describe, expect, it } from 'vitest';
import { approvalChoices, approvalExpiryOf, durationLabel, STATE_LABELS } from './support-labels.ts';

const NOW = Date.parse('2026-11-24T10:00:00Z');

describe('support access labels', () => {
  it('spells the cancelled state the British way', () => {
    expect(STATE_LABELS.canceled).toBe('Cancelled');
  });

  it('offers only approval periods that end before the requested expiry', () => {
    const choices = approvalChoices('2026-11-24T18:00:00Z', NOW).map((choice) => choice.value);
    expect(choices).toEqual(['requested', '1', '4']);
    expect(approvalChoices('2026-11-24T09:00:00Z', NOW)).toEqual([]);
    expect(approvalChoices('not a date', NOW)).toEqual([]);
  });

  it('sends no expiry for "as requested" and a shorter one otherwise', () => {
    expect(approvalExpiryOf('requested', NOW)).toBeUndefined();
    expect(approvalExpiryOf('4', NOW)).toBe('2026-11-24T14:00:00.000Z');
    expect(durationLabel(1)).toBe('1 hour');
    expect(durationLabel(72)).toBe('3 days');
  });
});
