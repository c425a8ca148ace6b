import { useQueries } from '@tanstack/react-query';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import { listPayloads, type PayloadListQuery } from './list-payloads.ts';

/** A payload count (`GET payloads?result_type=total`) with these filters; paging fields are not the caller's. */
export type PayloadCountQuery = Omit<PayloadListQuery, 'result_type' | 'last_key' | 'limit'>;

export function payloadCountOptions(session: Parameters<typeof sessionQueryOptions>[0], query: PayloadCountQuery) {
  return sessionQueryOptions(session, listPayloads, { query: { ...query, result_type: 'total' } });
}

/** Several counts at once, in the order asked; each is `undefined` until it arrives. */
export function usePayloadCounts(queries: readonly PayloadCountQuery[]) {
  const { session } = useSession();
  return useQueries({
    queries: queries.map((query) => payloadCountOptions(session, query)),
    combine: (results) => ({
      counts: results.map((result) => (result.data === undefined ? undefined : result.data.count)),
      isLoading: results.some((result) => result.isLoading),
      error: results.find((result) => result.error !== null)?.error ?? null,
    }),
  });
}
