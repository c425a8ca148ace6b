import cronstrue from 'cronstrue';
import { nextRuns, ScheduleReadError } from '#shared/contract/schedule.ts';

/** How many coming runs the screens show. */
export const NEXT_RUN_COUNT = 5;

const RATE = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const CRON = /^cron\((.+)\)$/;

/**
 * A schedule in words, e.g. "Every 30 minutes", "At 12:00, Monday through Friday (UTC)", "On demand only". An
 * expression that cannot be read is given back as it is (the form says what is wrong with it).
 */
export function scheduleInWords(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed === '') return 'On demand only';
  const rate = RATE.exec(trimmed);
  if (rate) {
    const amount = Number(rate[1]);
    const unit = (rate[2] ?? '').replace(/s$/, '');
    return amount === 1 ? `Every ${unit}` : `Every ${amount} ${unit}s`;
  }
  const cron = CRON.exec(trimmed);
  if (!cron) return trimmed;
  try {
    // EventBridge's six fields, with croner's and cronstrue's seconds in front; days of the week count from Sunday = 1.
    const words = cronstrue.toString(`0 ${(cron[1] ?? '').trim()}`, {
      dayOfWeekStartIndexZero: false,
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
    });
    return `${words} (UTC)`;
  } catch {
    return trimmed;
  }
}

/** The coming runs of a schedule, or why it cannot be read. Empty runs with no problem: on demand only. */
export interface SchedulePreview {
  runs: Date[];
  problem?: string;
}

/**
 * The next runs after `now` (a rate counts from `savedAt` when the schedule is saved, else from now), or the reason
 * the expression is not one EventBridge Scheduler accepts.
 */
export function previewSchedule(expression: string, now: Date, savedAt?: Date, count = NEXT_RUN_COUNT): SchedulePreview {
  try {
    return { runs: nextRuns(expression, count, now, savedAt) };
  } catch (error) {
    if (error instanceof ScheduleReadError) return { runs: [], problem: error.message };
    throw error;
  }
}
