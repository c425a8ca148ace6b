/** en-GB formatting for every date and number a screen shows (spec point 1). One formatter each, built once. */
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const integer = new Intl.NumberFormat('en-GB');
const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

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

/**
 * A recording's length, or a moment in it, as a clock: "0:09", "12:30", "1:02:03"; with `tenths`, "0:06.2" (spans are
 * kept to 0.1 s). THE one rounding rule for durations on every screen (details, lists, players, comments): to the
 * nearest unit shown, halves up. So a 9.95 s call reads 0:10 on its details, in its list and in its player alike;
 * flooring in one place and rounding in another made the same call 0:10 and 0:09. An unknown length is an em dash.
 */
export function formatDuration(seconds: number | undefined | null, options: { tenths?: boolean } = {}): string {
  if (seconds === undefined || seconds === null || !Number.isFinite(seconds)) return '—';
  const unitsPerSecond = options.tenths === true ? 10 : 1;
  const units = Math.round(Math.max(0, seconds) * unitsPerSecond);
  const whole = Math.floor(units / unitsPerSecond);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0') + (options.tenths === true ? `.${units % 10}` : '');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** Seconds to one decimal place, as a span's length reads ("2.9 s", "3 s"). */
export function formatSeconds(seconds: number): string {
  return `${oneDecimal.format(Math.round(seconds * 10) / 10)} s`;
}

const BYTE_UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

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
