import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { ErrorPage, NotFoundPage } from './components/errors/error-pages.tsx';
import type { Session } from './lib/session/session.ts';
import { routeTree } from './route-tree.gen.ts';

/**
 * Router-wide defaults. The error and not-found pages are set here, not only on the root route:
 * the router falls back to these (not to the root's) when a child route has none of its own.
 */
export const ROUTER_DEFAULTS = {
  defaultErrorComponent: ErrorPage,
  defaultNotFoundComponent: NotFoundPage,
  // Loaders prefetch on hover or focus; Query, not the router, decides what is fresh.
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
} as const;

/**
 * Builds the router with the QueryClient and the session in its context, so loaders can `ensureQueryData` and guards
 * can read who is signed in. `history` defaults to the browser's; tests pass a memory history.
 */
export function createAppRouter(context: { queryClient: QueryClient; session: Session }, history?: RouterHistory) {
  return createRouter({ routeTree, history, context, ...ROUTER_DEFAULTS });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
