import type { Clock } from '../../ports/clock.ts';

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told: tests set "now" instead of waiting for it. */
export interface FixedClock extends Clock {
  set(instant: Date | string): void;
  advance(milliseconds: number): void;
}

export function createFixedClock(initial: Date | string = '2025-01-01T00:00:00.000Z'): FixedClock {
  let current = new Date(initial).getTime();
  return {
    now: () => new Date(current),
    set: (instant) => {
      current = new Date(instant).getTime();
    },
    advance: (milliseconds) => {
      current += milliseconds;
    },
  };
}
