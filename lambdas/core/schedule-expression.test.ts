import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { parseScheduleExpression, ScheduleExpressionError } from './schedule-expression.ts';

describe('parseScheduleExpression', () => {
  it('reads rate expressions with EventBridge\'s singular and plural rule', () => {
    expect(parseScheduleExpression('rate(1 minute)')).toEqual({ kind: 'rate', everyMs: 60_000 });
    expect(parseScheduleExpression('rate(5 minutes)')).toEqual({ kind: 'rate', everyMs: 300_000 });
    expect(parseScheduleExpression('rate(2 hours)')).toEqual({ kind: 'rate', everyMs: 7_200_000 });
    expect(parseScheduleExpression('rate(1 day)')).toEqual({ kind: 'rate', everyMs: 86_400_000 });
    for (const bad of ['rate(1 minutes)', 'rate(5 minute)', 'rate(0 minutes)', 'rate(-1 days)', 'rate(5 weeks)', 'rate(5minutes)', 'rate()']) {
      expect(() => parseScheduleExpression(bad), bad).toThrow(ScheduleExpressionError);
    }
  });

  it('reads a step from a number, as EventBridge\'s own examples write it', () => {
    expect(parseScheduleExpression('cron(0/15 * * * ? *)')).toEqual({ kind: 'cron', pattern: '0 0/15 * * * * *' });
  });

  it('reads cron expressions with Quartz weekdays, as EventBridge does', () => {
    const parsed = parseScheduleExpression('cron(30 2 ? * 2 *)');
    expect(parsed).toEqual({ kind: 'cron', pattern: '0 30 2 * * 2 *' });
    // Weekday 2 is Monday in EventBridge: the next run from a Sunday is the next day.
    const next = new Cron((parsed as { pattern: string }).pattern, { mode: '7-part', alternativeWeekdays: true, timezone: 'UTC', paused: true })
      .nextRun(new Date('2025-01-05T12:00:00Z'));
    expect(next?.toISOString()).toBe('2025-01-06T02:30:00.000Z');
    expect(parseScheduleExpression('cron(0 12 1 * ? *)')).toEqual({ kind: 'cron', pattern: '0 0 12 1 * * *' });
  });

  it('refuses what EventBridge refuses', () => {
    for (const bad of ['cron(0 12 * * *)', 'cron(0 12 * * * *)', 'cron(0 12 ? * ? *)', 'cron(99 12 ? * * *)', 'cron(a b c d e f)', '0 12 * * *', '', 'at(2025-01-01T00:00:00)']) {
      expect(() => parseScheduleExpression(bad), bad).toThrow(ScheduleExpressionError);
    }
  });
});
