import { useEffect, useSyncExternalStore } from 'react';

/**
 * A page may force light or dark (spec point 1); "system" cannot be forced, so the type leaves it out. The forced
 * value lives outside React's tree because the Mantine provider sits above the router that renders the pages.
 */
export type ForcedColorScheme = 'light' | 'dark';

let forced: ForcedColorScheme | undefined;
const listeners = new Set<() => void>();

function setForced(value: ForcedColorScheme | undefined) {
  forced = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The colour scheme the current page forces, if any (read by the app's providers). */
export function useForcedColorScheme(): ForcedColorScheme | undefined {
  return useSyncExternalStore(subscribe, () => forced, () => undefined);
}

/** Call in a page or layout to force its colour scheme while it is shown; the user's preference returns after. */
export function useForceColorScheme(scheme: ForcedColorScheme): void {
  useEffect(() => {
    setForced(scheme);
    return () => setForced(undefined);
  }, [scheme]);
}
