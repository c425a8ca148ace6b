/** en-GB formatting for every date and number a screen shows (spec point 1). One formatter each, built once. */
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const integer = new Intl.NumberFormat('en-GB');

/** "21 Nov 2026, 14:05"; an empty or unreadable value shows as an em dash rather than "Invalid Date". */
export function formatDateTime(value: string | number | Date | undefined | null): string {
  const date = toDate(value);
  return date === undefined ? '—' : dateTime.format(date);
}

export function formatDate(value: string | number | Date | undefined | null): string {
  const date = toDate(value);
  return date === undefined ? '—' : dateOnly.format(date);
}

/** "12,345" */
export function formatNumber(value: number | undefined | null): string {
  return value === undefined || value === null || !Number.isFinite(value) ? '—' : integer.format(value);
}

function toDate(value: string | number | Date | undefined | null): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
