import { describe, expect, it } from 'vitest';
import { exportPeriodOf, exportProgress } from './export-period.ts';

describe('the export form\'s period', () => {
  it('exports the chosen last day whole: to is the next midnight, exclusive', () => {
    expect(exportPeriodOf('2026-11-01', '2026-11-28')).toEqual({ from: '2026-11-01T00:00:00Z', to: '2026-11-29T00:00:00Z' });
    expect(exportPeriodOf('2026-12-31', '2026-12-31')).toEqual({ from: '2026-12-31T00:00:00Z', to: '2027-01-01T00:00:00Z' });
  });

  it('has no period until both days are chosen', () => {
    expect(exportPeriodOf(undefined, '2026-11-28')).toBeUndefined();
    expect(exportPeriodOf('2026-11-01', undefined)).toBeUndefined();
    expect(exportPeriodOf('not a day', '2026-11-28')).toBeUndefined();
  });
});

describe('an export\'s progress', () => {
  it('says records written of the total, with the share for the bar', () => {
    expect(exportProgress(1204, 5000)).toEqual({ share: 24, words: '1,204 of 5,000 records written (24%)' });
    expect(exportProgress(0, 0)).toEqual({ share: 0, words: 'counting the records' });
    expect(exportProgress(10, 10).share).toBe(100);
  });
});
