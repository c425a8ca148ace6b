import type { MetricScope } from '#shared/constants/devices.ts';

/**
 * The period bucket of an instant in each metric scope, as text that sorts in time order (UTC):
 * Daily `2024-05-01`, Weekly `2024-W18` (ISO 8601 week: Monday first, the week-numbering year, so 2024-12-30 is
 * `2025-W01`), Monthly `2024-05`, Yearly `2024`, Summary `all`.
 */
export function periodOf(scope: MetricScope, time: Date): string {
  const iso = time.toISOString();
  switch (scope) {
    case 'Daily':
      return iso.slice(0, 10);
    case 'Weekly':
      return isoWeek(time);
    case 'Monthly':
      return iso.slice(0, 7);
    case 'Yearly':
      return iso.slice(0, 4);
    case 'Summary':
      return 'all';
  }
}

function isoWeek(time: Date): string {
  const day = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
  const weekday = day.getUTCDay() === 0 ? 7 : day.getUTCDay();
  // The Thursday of the same ISO week decides the week-numbering year.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const year = day.getUTCFullYear();
  const week = Math.ceil(((day.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Every scope a payload counts in. */
export const ALL_SCOPES: readonly MetricScope[] = ['Daily', 'Weekly', 'Monthly', 'Yearly', 'Summary'];
