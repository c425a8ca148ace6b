import { QueryClient } from '@tanstack/react-query';
import { ApiError, ResponseShapeError } from './api-error.ts';

/** Retrying cannot fix a client error or a contract mismatch; it only delays the message. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ResponseShapeError) return false;
  if (error instanceof ApiError && error.status < 500 && error.status !== 429) return false;
  return failureCount < 2;
}

/** One QueryClient per page, handed to the router context so loaders can prefetch. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
