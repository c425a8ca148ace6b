import { describe, expect, it } from 'vitest';
import { APPROVAL_STATE_LABELS, labelOf, LOG_LEVEL_LABELS, optionsOf, SERVICE_LABELS } from './labels.ts';

describe('wire value labels', () => {
  it('words wire values in en-GB', () => {
    expect(APPROVAL_STATE_LABELS.canceled).toBe('Cancelled');
    expect(LOG_LEVEL_LABELS.WARN).toBe('Warning');
    expect(SERVICE_LABELS.sms).toBe('SMS');
  });

  it('falls back to the value for one the map does not know, and builds options in enum order', () => {
    expect(labelOf(APPROVAL_STATE_LABELS, 'suspended')).toBe('suspended');
    expect(labelOf(APPROVAL_STATE_LABELS, 'toString')).toBe('toString');
    expect(optionsOf(['ERROR', 'DEBUG'] as const, LOG_LEVEL_LABELS)).toEqual([
      { value: 'ERROR', label: 'Error' },
      { value: 'DEBUG', label: 'Debug' },
    ]);
  });
});
