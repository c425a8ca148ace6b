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

const BYTE_UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;
const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/** "512 bytes", "1.5 MB" (powers of 1000, as file managers show sizes). */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${integer.format(value)} bytes` : `${oneDecimal.format(value)} ${BYTE_UNITS[unit]}`;
}

function toDate(value: string | number | Date | undefined | null): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
