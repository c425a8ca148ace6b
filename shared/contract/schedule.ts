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
 * Checks a schedule the way EventBridge Scheduler writes it: `rate(5 minutes)` or
 * `cron(minutes hours day-of-month month day-of-week year)`. The first five cron fields are checked with croner
 * (`?` read as `*`); the year is `*`, a year, a range or a list.
 */
export function isScheduleExpression(value: string): boolean {
  const rate = RATE.exec(value);
  if (rate) {
    const amount = Number(rate[1]);
    const unit = rate[2] ?? '';
    return amount >= 1 && (amount === 1) === !unit.endsWith('s');
  }
  const cron = CRON.exec(value);
  if (!cron) return false;
  const fields = (cron[1] ?? '').trim().split(/\s+/);
  if (fields.length !== 6) return false;
  const year = fields[5] ?? '';
  if (!/^(\*|\d{4}(-\d{4})?(\/\d+)?(,\d{4}(-\d{4})?)*)$/.test(year)) return false;
  try {
    new Cron(fields.slice(0, 5).join(' ').replaceAll('?', '*'), { paused: true });
    return true;
  } catch {
    return false;
  }
}

/** Transfer schedule: a cron or rate expression, or empty (run on demand only). */
export const Schedule = z.string().max(SCHEDULE_MAX, { error: lengthAtMost(SCHEDULE_MAX) }).refine((value) => value === '' || isScheduleExpression(value), {
  error: MESSAGES.cronOrRate,
});
export type Schedule = z.infer<typeof Schedule>;
