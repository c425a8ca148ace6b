/**
 * Single flight with a short reuse window (spec point 4: "only one refresh and one profile load may be in flight at a
 * time; each is reusable after 1000 ms"). Callers during a run share its promise; callers within `reuseMs` after it
 * settles get the same outcome; the first caller after that starts a new run.
 */
export const REUSE_WINDOW_MS = 1000;

export interface ReusableFlight<T> {
  (): Promise<T>;
  /** Forgets the last outcome, so the next call runs afresh (after logout, say). */
  reset(): void;
}

export function reusableFlight<T>(
  run: () => Promise<T>,
  options: { reuseMs?: number; now?: () => number } = {},
): ReusableFlight<T> {
  const reuseMs = options.reuseMs ?? REUSE_WINDOW_MS;
  const now = options.now ?? Date.now;
  let current: Promise<T> | undefined;
  let settledAt: number | undefined;

  const call = (() => {
    const fresh = current !== undefined && (settledAt === undefined || now() - settledAt < reuseMs);
    if (fresh && current !== undefined) return current;
    settledAt = undefined;
    const flight = run();
    current = flight;
    const markSettled = () => {
      if (current === flight) settledAt = now();
    };
    flight.then(markSettled, markSettled);
    return flight;
  }) as ReusableFlight<T>;
  call.reset = () => {
    current = undefined;
    settledAt = undefined;
  };
  return call;
}
