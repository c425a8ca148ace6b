import '@mantine/dates/styles.css';
import { DateInput, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';

/**
 * Days shown and typed the British way. A native `<input type="date">` follows the browser's locale instead (a US
 * browser shows mm/dd/yyyy), so the portal draws its own: DD/MM/YYYY, weeks from Monday, with a calendar to pick from.
 * This module (and dayjs) loads only with the screens that filter by day.
 */
const DAY_FORMAT = 'DD/MM/YYYY';
/** Day first, then month, then a four-digit year, with `/`, `.` or `-` between; or an ISO day. */
const DAY_FIRST = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const EN_GB = { locale: 'en-gb', firstDayOfWeek: 1 } as const;

/** A typed day as the API's `YYYY-MM-DD`, or null when it is not a real day in a British (or ISO) form. */
export function parseTypedDay(text: string): string | null {
  const trimmed = text.trim();
  const dayFirst = DAY_FIRST.exec(trimmed);
  const iso = ISO_DAY.exec(trimmed);
  const [year, month, day] = dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (year === undefined || month === undefined || day === undefined) return null;
  const candidate = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  // dayjs rolls 31/02 over into March; a day that does not survive the round trip does not exist.
  const parsed = dayjs(candidate);
  return parsed.isValid() && parsed.format('YYYY-MM-DD') === candidate ? candidate : null;
}

interface DayInputProps {
  label: string;
  value: string | undefined;
  onChange: (day: string | undefined) => void;
  /** The earliest and latest days the calendar offers (the other end of the range). */
  min?: string | undefined;
  max?: string | undefined;
  /** A form's field: its help line, its refusal, and whether it must be filled. */
  description?: string | undefined;
  error?: string | undefined;
  required?: boolean | undefined;
}

function DayInput({ label, value, onChange, min, max, description, error, required }: DayInputProps) {
  return (
    <DateInput
      label={label}
      description={description}
      error={error}
      required={required}
      placeholder="dd/mm/yyyy"
      valueFormat={DAY_FORMAT}
      dateParser={parseTypedDay}
      value={value ?? null}
      onChange={(day) => onChange(day ?? undefined)}
      clearable
      clearButtonProps={{ 'aria-label': `Clear ${label}` }}
      minDate={min}
      maxDate={max}
      popoverProps={{ withinPortal: true }}
    />
  );
}

/** From and To days (read by the API as UTC days, both ends included); each end bounds the other's calendar. */
export function DateRangeFilter({
  from,
  to,
  onChange,
  fromLabel = 'From',
  toLabel = 'To',
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from: string | undefined; to: string | undefined }) => void;
  fromLabel?: string;
  toLabel?: string;
}) {
  return (
    <DatesProvider settings={EN_GB}>
      <DayInput label={fromLabel} value={from} max={to} onChange={(day) => onChange({ from: day, to })} />
      <DayInput label={toLabel} value={to} min={from} onChange={(day) => onChange({ from, to: day })} />
    </DatesProvider>
  );
}

/** One day, typed or picked the British way, as a form's field (e.g. when a letter was received): `YYYY-MM-DD`. */
export function DayField(props: DayInputProps) {
  return (
    <DatesProvider settings={EN_GB}>
      <DayInput {...props} />
    </DatesProvider>
  );
}
