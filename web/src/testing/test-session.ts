import { AUTH_STORAGE_KEY, memoryStorage } from '../lib/session/auth-storage.ts';
import { Session, type SessionDependencies } from '../lib/session/session.ts';

/**
 * TEST HELPER: a session over memory storage holding `stored` (what sign-in keeps under the auth key), or signed out
 * without it; it navigates and notifies nowhere. `overrides` replace any dependency (a fetch, the API bases, the
 * storage itself).
 */
export function testSession(stored?: object, overrides: Partial<SessionDependencies> = {}): Session {
  // A test that reads the storage afterwards passes its own (`overrides.storage`); `stored` is written there.
  const storage = overrides.storage ?? memoryStorage();
  if (stored !== undefined) storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(stored));
  return new Session({
    storage,
    flowStorage: memoryStorage(),
    origin: 'http://localhost:3000',
    navigate: () => undefined,
    navigateExternal: () => undefined,
    notify: () => undefined,
    ...overrides,
  });
}
