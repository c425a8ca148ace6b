import { Cron } from 'croner';

/** A parsed EventBridge schedule expression. */
export type ParsedSchedule =
  | { kind: 'rate'; everyMs: number }
  /** `pattern` is croner's 7-part form (seconds first, Quartz weekdays: Sunday = 1, as EventBridge). */
  | { kind: 'cron'; pattern: string };

const RATE = /^rate\((\d{1,6}) (minute|minutes|hour|hours|day|days)\)$/;
const CRON = /^cron\((.+)\)$/;
const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Thrown for an expression EventBridge Scheduler would refuse. */
export class ScheduleExpressionError extends Error {
  override readonly name = 'ScheduleExpressionError';
}

/**
 * Parses `rate(N unit)` or `cron(minutes hours day-of-month month day-of-week year)` with EventBridge's rules
 * (singular unit for 1, plural otherwise; exactly one of day-of-month and day-of-week is `?`). Both scheduler
 * adapters call it, so an expression the local scheduler accepts is one AWS accepts too.
 */
export function parseScheduleExpression(expression: string): ParsedSchedule {
  const rate = RATE.exec(expression);
  if (rate) {
    const value = Number(rate[1]);
    const unit = rate[2] as string;
    const singular = unit.replace(/s$/, '') as keyof typeof UNIT_MS;
    if (value < 1 || (value === 1) !== (unit === singular)) {
      throw new ScheduleExpressionError(`Invalid rate expression: ${expression}`);
    }
    return { kind: 'rate', everyMs: value * UNIT_MS[singular] };
  }
  const cron = CRON.exec(expression);
  if (cron) {
    const fields = (cron[1] as string).trim().split(/\s+/);
    if (fields.length !== 6) throw new ScheduleExpressionError(`A cron expression has 6 fields: ${expression}`);
    const [minutes, hours, dayOfMonth, month, dayOfWeek, year] = fields as [string, string, string, string, string, string];
    if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
      throw new ScheduleExpressionError(`Exactly one of day-of-month and day-of-week must be "?": ${expression}`);
    }
    // croner reads `?` as "now", EventBridge as "any": translate it to croner's wildcard.
    const any = (field: string) => (field === '?' ? '*' : field);
    const pattern = ['0', minutes, hours, any(dayOfMonth), month, any(dayOfWeek), year].join(' ');
    try {
      new Cron(pattern, { paused: true, mode: '7-part', alternativeWeekdays: true, sloppyRanges: true }).stop();
    } catch (cause) {
      throw new ScheduleExpressionError(`Invalid cron expression: ${expression}`, { cause });
    }
    return { kind: 'cron', pattern };
  }
  throw new ScheduleExpressionError(`Not a rate or cron expression: ${expression}`);
}
