/** Digits of a number that identify it across formats: national and international forms share their last 9 digits. */
const COMPARED_DIGITS = 9;

/**
 * A phone number as matching compares it: its digits only, the last 9 (`+44 7700 900123` and `07700900123` are both
 * `700900123`), so a call log's national form matches a recording's international one. Undefined when it has no digit
 * (a withheld number, an alias): such a number matches nothing.
 */
export function comparableNumber(number: string | undefined): string | undefined {
  if (number === undefined) return undefined;
  const digits = number.replace(/\D/g, '');
  return digits === '' ? undefined : digits.slice(-COMPARED_DIGITS);
}

/** The comparable forms of several numbers, without repeats or numbers that have none. */
export function comparableNumbers(numbers: readonly string[]): string[] {
  return [...new Set(numbers.map(comparableNumber).filter((number): number is string => number !== undefined))];
}
