import { describe, expect, it } from 'vitest';
import { isScheduleExpression, nextRuns, Schedule, ScheduleReadError } from './schedule.ts';

const iso = (dates: Date[]) => dates.map((date) => date.toISOString());
// A Tuesday afternoon, UTC.
const FROM = new Date('2026-11-24T13:07:30.000Z');

describe('nextRuns: rate expressions', () => {
  it('counts whole periods from when the schedule was saved', () => {
    const savedAt = new Date('2026-11-24T12:00:00.000Z');
    expect(iso(nextRuns('rate(30 minutes)', 3, FROM, savedAt))).toEqual([
      '2026-11-24T13:30:00.000Z',
      '2026-11-24T14:00:00.000Z',
      '2026-11-24T14:30:00.000Z',
    ]);
  });

  it('counts from `from` when the save time is unknown (a schedule being typed)', () => {
    expect(iso(nextRuns('rate(1 day)', 2, FROM))).toEqual(['2026-11-25T13:07:30.000Z', '2026-11-26T13:07:30.000Z']);
    expect(iso(nextRuns('rate(2 hours)', 1, FROM))).toEqual(['2026-11-24T15:07:30.000Z']);
  });

  it('refuses the unit EventBridge refuses, saying what to write', () => {
    expect(() => nextRuns('rate(1 minutes)', 5, FROM)).toThrow('Write rate(1 minute)');
    expect(() => nextRuns('rate(5 hour)', 5, FROM)).toThrow('Write rate(5 hours)');
    expect(() => nextRuns('rate(0 minutes)', 5, FROM)).toThrow(ScheduleReadError);
    expect(() => nextRuns('rate(5 weeks)', 5, FROM)).toThrow(ScheduleReadError);
  });
});

describe('nextRuns: EventBridge cron expressions', () => {
  it('reads ? as any and the year field', () => {
    // 10:15 every day, any day of the week.
    expect(iso(nextRuns('cron(15 10 * * ? *)', 2, FROM))).toEqual(['2026-11-25T10:15:00.000Z', '2026-11-26T10:15:00.000Z']);
    // Noon on weekdays, in 2027 only.
    expect(iso(nextRuns('cron(0 12 ? * MON-FRI 2027)', 3, FROM))).toEqual([
      '2027-01-01T12:00:00.000Z',
      '2027-01-04T12:00:00.000Z',
      '2027-01-05T12:00:00.000Z',
    ]);
  });

  it('numbers the days of the week from Sunday = 1, as EventBridge does', () => {
    // 2 is Monday: 30 November 2026 is the next one.
    expect(iso(nextRuns('cron(0 8 ? * 2 *)', 2, FROM))).toEqual(['2026-11-30T08:00:00.000Z', '2026-12-07T08:00:00.000Z']);
    // 1 is Sunday.
    expect(iso(nextRuns('cron(0 8 ? * 1 *)', 1, FROM))).toEqual(['2026-11-29T08:00:00.000Z']);
  });

  it('runs on the last day of the month with L, every 15 minutes with a step', () => {
    expect(iso(nextRuns('cron(0 0 L * ? *)', 2, FROM))).toEqual(['2026-11-30T00:00:00.000Z', '2026-12-31T00:00:00.000Z']);
    expect(iso(nextRuns('cron(0/15 * * * ? *)', 3, FROM))).toEqual([
      '2026-11-24T13:15:00.000Z',
      '2026-11-24T13:30:00.000Z',
      '2026-11-24T13:45:00.000Z',
    ]);
  });

  it('has no next run when every year it names is past', () => {
    expect(nextRuns('cron(0 8 ? * 2 2020)', 5, FROM)).toEqual([]);
  });

  it('refuses what EventBridge refuses, saying why', () => {
    expect(() => nextRuns('cron(0 12 * * * *)', 5, FROM)).toThrow('Exactly one of day-of-month');
    expect(() => nextRuns('cron(0 12 ? * ? *)', 5, FROM)).toThrow('Exactly one of day-of-month');
    expect(() => nextRuns('cron(0 12 * * ?)', 5, FROM)).toThrow('has 6 fields');
    expect(() => nextRuns('cron(61 12 * * ? *)', 5, FROM)).toThrow('Not a valid cron expression');
    expect(() => nextRuns('every day', 5, FROM)).toThrow(ScheduleReadError);
  });

  it('gives nothing for an empty schedule (on demand only)', () => {
    expect(nextRuns('', 5, FROM)).toEqual([]);
    expect(nextRuns('  ', 5, FROM)).toEqual([]);
  });
});

describe('Schedule: the contract accepts exactly what the editor previews', () => {
  it('accepts EventBridge steps from a number and refuses both day fields given', () => {
    expect(Schedule.safeParse('cron(0/15 * * * ? *)').success).toBe(true);
    expect(Schedule.safeParse('rate(5 minutes)').success).toBe(true);
    expect(Schedule.safeParse('').success).toBe(true);
    expect(Schedule.safeParse('cron(0 3 * * * *)').success).toBe(false);
    expect(Schedule.safeParse(' rate(5 minutes)').success).toBe(false);
    expect(isScheduleExpression('')).toBe(false);
  });
});
