import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, ResponseShapeError } from './api-error.ts';

/** Retrying cannot fix a client error or a contract mismatch; it only delays the message. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ResponseShapeError) return false;
  if (error instanceof Error && error.name === 'AuthExpiredError') return false;
  if (error instanceof ApiError && error.status < 500 && error.status !== 429) return false;
  return failureCount < 2;
}

/**
 * A form that shows refused input under its fields (`meta.formErrors`) already tells the user what to fix; the same
 * lines again in a notification would only repeat them. Sign-in, permission and server failures still notify.
 */
export function shownByTheForm(error: unknown, meta: Record<string, unknown> | undefined): boolean {
  if (meta?.formErrors !== true || !(error instanceof ApiError)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403 && error.status !== 429;
}

/**
 * One QueryClient per page, handed to the router context so loaders can prefetch. `onError` sees every failed query
 * and mutation once (spec point 8: any failed response raises a notification).
 */
export function createQueryClient(options: { onError?: (error: unknown) => void } = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => options.onError?.(error) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (shownByTheForm(error, mutation.meta)) return;
        options.onError?.(error);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
