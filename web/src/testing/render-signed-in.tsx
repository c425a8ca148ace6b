import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { AppProviders } from '../app/providers.tsx';
import { testSession } from './test-session.ts';

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
  const session = testSession({ client: 'demo', idToken: 't', user });
  return renderToString(
    <AppProviders queryClient={new QueryClient()} session={session}>
      {node}
    </AppProviders>,
  );
}
