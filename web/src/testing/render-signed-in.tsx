import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { AppProviders } from '../app/providers.tsx';
import { AUTH_STORAGE_KEY, memoryStorage } from '../features/session/auth-storage.ts';
import { Session } from '../features/session/session.ts';

/** TEST HELPER: the signed-in user a component test renders for (what the session keeps after sign-in). */
export interface SignedInUser {
  reference: string;
  actions: readonly string[];
  groups: readonly string[];
  roles: readonly string[];
  payloadTypes: readonly string[];
}

/** A user of tenant `demo` holding `actions`, in every group and payload type. */
export function userWith(actions: readonly string[]): SignedInUser {
  return { reference: 'u-1', actions, groups: [], roles: ['r'], payloadTypes: [] };
}

/** Server-renders `node` inside the app's providers for `user` signed in to tenant `demo`; answers the HTML. */
export function renderSignedIn(node: ReactNode, user: SignedInUser | undefined): string {
  const storage = memoryStorage();
  storage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ client: 'demo', idToken: 't', user }));
  const session = new Session({
    storage,
    flowStorage: memoryStorage(),
    origin: 'http://localhost:3000',
    navigate: () => undefined,
    navigateExternal: () => undefined,
    notify: () => undefined,
  });
  return renderToString(
    <AppProviders queryClient={new QueryClient()} session={session}>
      {node}
    </AppProviders>,
  );
}
