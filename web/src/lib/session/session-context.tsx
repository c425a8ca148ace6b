import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { PersistentAuthState } from '#shared/contract/entities/account.ts';
import type { Session } from './session.ts';

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The page's session object (login, logout, support mode, calls). */
export function useSessionObject(): Session {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error('useSession needs a SessionProvider above it');
  return session;
}

/** The page's session, or undefined outside a SessionProvider (a page that must render anywhere, e.g. not-found). */
export function useSessionIfAny(): Session | undefined {
  return useContext(SessionContext);
}

/** The session and its current state; re-renders when the state changes (in this tab or another). */
export function useSession(): { session: Session; state: PersistentAuthState } {
  const session = useSessionObject();
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  return { session, state };
}
