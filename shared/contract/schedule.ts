import { Cron } from 'croner';
import * as z from 'zod';
import { SCHEDULE_MAX } from './bounds.ts';
import { lengthAtMost, MESSAGES } from './messages.ts';

/*
 * Apart from the other fields (./fields.ts) because croner checks the cron fields: only the functions whose schemas
 * take a schedule (transfer configurations) bundle it.
 */

const RATE = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const CRON = /^cron\((.+)\)$/;

/**
 * Whether EventBridge Scheduler accepts a schedule: `rate(5 minutes)` or
 * `cron(minutes hours day-of-month month day-of-week year)`, read exactly as `nextRuns` reads it (so the editor's
 * preview and the contract never disagree).
 */
export function isScheduleExpression(value: string): boolean {
  try {
    nextRuns(value, 1, new Date(0));
    return value !== '' && value === value.trim();
  } catch {
    return false;
  }
}

/** Transfer schedule: a cron or rate expression, or empty (run on demand only). */
export const Schedule = z.string().max(SCHEDULE_MAX, { error: lengthAtMost(SCHEDULE_MAX) }).refine((value) => value === '' || isScheduleExpression(value), {
  error: MESSAGES.cronOrRate,
});
export type Schedule = z.infer<typeof Schedule>;

const RATE_UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Why `nextRuns` could not read an expression, in words a person typing it can act on. */
export class ScheduleReadError extends Error {
  override readonly name = 'ScheduleReadError';
}

/**
 * The next `count` times (UTC) a schedule runs after `from`, as EventBridge Scheduler reads it, so a screen can show
 * them while the expression is typed. Empty for an empty schedule (run on demand only).
 *
 * - `rate(N unit)` runs every N units from when its schedule was saved: pass that moment as `savedAt` to get the real
 *   times; without it the runs are counted from `from`.
 * - `cron(minutes hours day-of-month month day-of-week year)` uses EventBridge's fields: exactly one of day-of-month
 *   and day-of-week is `?` (any), days of the week are 1-7 from Sunday (or SUN-SAT), and the year may be `*`, a year,
 *   a range or a list. A schedule whose years are all past has no next run.
 *
 * Throws a ScheduleReadError saying what is wrong when the expression is not one EventBridge accepts.
 */
export function nextRuns(expression: string, count: number, from: Date, savedAt?: Date): Date[] {
  const trimmed = expression.trim();
  if (trimmed === '' || count <= 0) return [];
  const rate = RATE.exec(trimmed);
  if (rate) return rateRuns({ amount: Number(rate[1]), unit: rate[2] ?? '' }, count, { from, savedAt });
  const cron = CRON.exec(trimmed);
  if (!cron) throw new ScheduleReadError('Write rate(<number> <minutes|hours|days>) or cron(<6 fields>)');
  return cronRuns(cron[1] ?? '', count, from);
}

function rateRuns({ amount, unit }: { amount: number; unit: string }, count: number, { from, savedAt }: { from: Date; savedAt: Date | undefined }): Date[] {
  const singular = unit.replace(/s$/, '') as keyof typeof RATE_UNIT_MS;
  if (amount < 1) throw new ScheduleReadError('A rate is at least 1');
  if ((amount === 1) !== (unit === singular)) {
    throw new ScheduleReadError(amount === 1 ? `Write rate(1 ${singular})` : `Write rate(${amount} ${singular}s)`);
  }
  const every = amount * RATE_UNIT_MS[singular];
  const start = savedAt ?? from;
  // The first run after `from`: one period after saving, or the first whole period past `from` since then.
  const elapsed = Math.max(0, from.getTime() - start.getTime());
  const first = start.getTime() + (Math.floor(elapsed / every) + 1) * every;
  return Array.from({ length: count }, (_, index) => new Date(first + index * every));
}

function cronRuns(body: string, count: number, from: Date): Date[] {
  const fields = body.trim().split(/\s+/);
  if (fields.length !== 6) {
    throw new ScheduleReadError(`A cron expression has 6 fields (minutes hours day-of-month month day-of-week year); this has ${fields.length}`);
  }
  const [minutes, hours, dayOfMonth, month, dayOfWeek, year] = fields as [string, string, string, string, string, string];
  if ((dayOfMonth === '?') === (dayOfWeek === '?')) {
    throw new ScheduleReadError('Exactly one of day-of-month (3rd field) and day-of-week (5th field) must be ?');
  }
  // croner reads `?` as "now", EventBridge as "any".
  const any = (field: string) => (field === '?' ? '*' : field);
  let job: Cron;
  try {
    job = new Cron(['0', minutes, hours, any(dayOfMonth), month, any(dayOfWeek), year].join(' '), {
      paused: true,
      mode: '7-part',
      alternativeWeekdays: true,
      // EventBridge's own examples step from a number (`0/15`), which croner reads only with sloppy ranges.
      sloppyRanges: true,
      timezone: 'UTC',
    });
  } catch (cause) {
    throw new ScheduleReadError(`Not a valid cron expression${cause instanceof Error ? ` (${cause.message})` : ''}`);
  }
  return job.nextRuns(count, from);
}
