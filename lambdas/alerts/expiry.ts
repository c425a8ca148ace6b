import { ValidationError } from '../core/errors.ts';

/**
 * Decision: an alert's expiry is given to the engine as a duration after the occurrence, either a number of seconds
 * or an ISO 8601 duration (`PT15M`, `P1D`, `P1DT12H`; no years or months, whose length varies). The stored and
 * returned `expires_after` is the resulting instant (the contract types it as a Timestamp), so the expiry job and
 * the portal compare instants. Each new occurrence of a Scoped alert restarts the window.
 */
const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** At most a year: anything longer is a mistake, not an expiry. */
const MAX_SECONDS = 366 * 24 * 3600;

/** The duration in seconds; a ValidationError (`expires_after: …`) when it is not one we accept. */
export function durationSeconds(value: number | string): number {
  let seconds: number;
  if (typeof value === 'number') {
    seconds = value;
  } else {
    const match = ISO_DURATION.exec(value);
    if (match === null || value === 'P' || value.endsWith('T')) throw new ValidationError(['expires_after: Must be seconds or an ISO 8601 duration']);
    const [weeks, days, hours, minutes, secs] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number];
    seconds = ((weeks * 7 + days) * 24 + hours) * 3600 + minutes * 60 + secs;
  }
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_SECONDS) {
    throw new ValidationError(['expires_after: Must be more than 0 seconds and at most a year']);
  }
  return seconds;
}

/** The instant `expiresAfter` after `from`, as ISO text. */
export function expiryInstant(from: Date, expiresAfter: number | string): string {
  return new Date(from.getTime() + durationSeconds(expiresAfter) * 1000).toISOString();
}
