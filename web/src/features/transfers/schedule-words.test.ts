import { describe, expect, it } from 'vitest';
import { previewSchedule, scheduleInWords } from './schedule-words.ts';

describe('scheduleInWords', () => {
  it('says a rate, an EventBridge cron (days from Sunday = 1, the year) and an empty schedule in words', () => {
    expect(scheduleInWords('rate(1 day)')).toBe('Every day');
    expect(scheduleInWords('rate(30 minutes)')).toBe('Every 30 minutes');
    expect(scheduleInWords('cron(0 8 ? * 2 *)')).toBe('At 08:00, only on Monday (UTC)');
    expect(scheduleInWords('cron(0 12 ? * MON-FRI 2027)')).toBe('At 12:00, Monday through Friday, only in 2027 (UTC)');
    expect(scheduleInWords('')).toBe('On demand only');
  });

  it('gives back what it cannot read', () => {
    expect(scheduleInWords('cron(nonsense)')).toBe('cron(nonsense)');
    expect(scheduleInWords('weekly')).toBe('weekly');
  });
});

describe('previewSchedule', () => {
  const now = new Date('2026-11-24T13:07:30.000Z');

  it('lists the next five runs, or says what is wrong', () => {
    expect(previewSchedule('cron(0 8 ? * 2 *)', now).runs.map((run) => run.toISOString())).toEqual([
      '2026-11-30T08:00:00.000Z',
      '2026-12-07T08:00:00.000Z',
      '2026-12-14T08:00:00.000Z',
      '2026-12-21T08:00:00.000Z',
      '2026-12-28T08:00:00.000Z',
    ]);
    expect(previewSchedule('cron(0 8 * * 2 *)', now).problem).toMatch(/Exactly one of day-of-month/);
    expect(previewSchedule('', now)).toEqual({ runs: [] });
  });
});
