/**
 * The day a request was received, as the form picks it and the API stores it. A request is received on a day, not
 * at a time: it is stored as that day's first moment in UTC (never in the future, which the API refuses), and shown
 * as that UTC day (erasure-model.ts `dayOf`).
 */

/** Today's day in UTC, `YYYY-MM-DD`: the form's default and the latest day it offers. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A picked day (`YYYY-MM-DD`) as the API's `received_at`. */
export function receivedAtOf(day: string): string {
  return `${day}T00:00:00Z`;
}
