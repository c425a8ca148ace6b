import { PersistentAuthState } from '#shared/contract/entities/account.ts';

/** The persisted session (spec point 4), in local storage so a reload or a new tab stays signed in. */
export const AUTH_STORAGE_KEY = 'verity.auth';

/** The part of `Storage` the session needs; tests pass a Map-backed fake. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * Reads the stored state. Anything unreadable (edited by hand, written by an older version) counts as signed out:
 * a half-valid session would fail later in a less clear place.
 */
export function readAuthState(storage: KeyValueStorage): PersistentAuthState {
  try {
    const parsed = PersistentAuthState.safeParse(JSON.parse(storage.getItem(AUTH_STORAGE_KEY) ?? '{}'));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function writeAuthState(storage: KeyValueStorage, state: PersistentAuthState): void {
  try {
    storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or blocked (private mode): the session still works for this page, it just will not survive a reload.
  }
}

/** A storage that forgets: for server-side rendering and tests. */
export function memoryStorage(): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}
