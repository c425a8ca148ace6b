import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { ErrorPage, NotFoundPage } from '../components/errors/error-pages.tsx';
import type { Session } from '../lib/session/session.ts';

/** What every route's loader and `beforeLoad` receive. */
export interface RouterContext {
  queryClient: QueryClient;
  session: Session;
}

/** The root renders only its child: each layout (landing, empty, default, internal) is a pathless or path route below. */
export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});
