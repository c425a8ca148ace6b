import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { useSession } from './session/session-context.tsx';
import type { Session } from './session/session.ts';
import type { CallInput, EndpointResponse } from './api-client.ts';

/**
 * React Query hooks over registry endpoints, called as the signed-in user.
 *
 * Every argument the call sends is in the key: the endpoint, the tenant, the support reference, params and query.
 * Leave one out and one tenant's (or one support session's) cached answer would serve another.
 */
export function sessionQueryKey(
  endpoint: Endpoint,
  scope: { client?: string; supportReference?: string },
  input: { params?: object; query?: object },
) {
  return ['api', endpoint.id, scope.client ?? null, scope.supportReference ?? null, input.params ?? {}, input.query ?? {}] as const;
}

/**
 * Query options for one read endpoint called as the session's user. A route loader can prefetch with them
 * (`void queryClient.prefetchQuery(...)`) so the data is on its way while the screen's code still loads.
 */
export function sessionQueryOptions<E extends Endpoint>(session: Session, endpoint: E, input: CallInput<E>) {
  const state = session.getState();
  const scope = { client: (input as { client?: string }).client ?? state.client, supportReference: state.supportReference };
  return queryOptions<EndpointResponse<E>>({
    queryKey: sessionQueryKey(endpoint, scope, input as object),
    queryFn: ({ signal }) => session.call(endpoint, input, signal),
  });
}

/** One read endpoint. */
export function useEndpointQuery<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: Pick<UseQueryOptions<EndpointResponse<E>>, 'enabled' | 'refetchInterval' | 'staleTime'> = {},
) {
  const { session } = useSession();
  // useSession() re-renders on a session change, so the key below follows the tenant and support reference.
  return useQuery<EndpointResponse<E>>({ ...sessionQueryOptions(session, endpoint, input), ...options });
}

/** How often a list with pending rows asks again. */
export const PENDING_POLL_MS = 5_000;

/** A `refetchInterval` for a cursor list: PENDING_POLL_MS while some loaded row is pending, else no polling. */
export function pollWhilePending<T>(isPending: (item: T) => boolean) {
  return (query: { state: { data?: { pages: ReadonlyArray<{ data: readonly T[] }> } } }): number | false =>
    query.state.data?.pages.some((page) => page.data.some(isPending)) === true ? PENDING_POLL_MS : false;
}

/** The fields every paginated answer has (`paginated()` in shared/contract/entities/common.ts). */
interface PageShape<T> {
  count: number;
  last_key?: string;
  data: T[];
}

/** The item type of a paginated endpoint; the page arm of a page-or-total answer (`result_type`) is the one used. */
type ItemOf<E extends Endpoint> = Extract<EndpointResponse<E>, { data: unknown[] }> extends PageShape<infer T> ? T : never;

/**
 * A cursor list: pages of `limit` items, the next page asked for with the previous page's `last_key`
 * (spec point 7). Returns the items loaded so far, flat, plus React Query's paging controls.
 */
export function useCursorList<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: {
    enabled?: boolean;
    refetchInterval?: number | false;
    staleTime?: number;
    /**
     * Rows whose state moves on by itself (a command Sent, a recording Uploaded): while any loaded row is still
     * pending, the list refetches every PENDING_POLL_MS; once none is, polling stops.
     */
    pollWhile?: (item: ItemOf<E>) => boolean;
  } = {},
) {
  const { session, state } = useSession();
  const scope = { client: (input as { client?: string }).client ?? state.client, supportReference: state.supportReference };
  const query = useInfiniteQuery({
    queryKey: [...sessionQueryKey(endpoint, scope, input as object), 'pages'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const base = (input as { query?: object }).query ?? {};
      const withCursor = { ...input, query: pageParam === undefined ? base : { ...base, last_key: pageParam } } as CallInput<E>;
      return session.call(endpoint, withCursor, signal) as Promise<PageShape<ItemOf<E>>>;
    },
    getNextPageParam: (lastPage) => lastPage.last_key,
    enabled: options.enabled,
    refetchInterval: options.pollWhile === undefined ? options.refetchInterval : pollWhilePending(options.pollWhile),
    ...(options.staleTime === undefined ? {} : { staleTime: options.staleTime }),
  });
  const items = query.data?.pages.flatMap((page) => page.data) ?? [];
  return { ...query, items };
}

/**
 * A write endpoint. On success the listed read endpoints' cached answers are dropped (they refetch when shown), so a
 * list never shows what was just changed as it was before.
 */
export function useEndpointMutation<E extends Endpoint>(
  endpoint: E,
  options: {
    invalidates?: readonly Endpoint[];
    /** The caller shows refused input under its fields (components/forms/form-errors.tsx): no notification repeats it. */
    formErrors?: boolean;
  } = {},
) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  return useMutation<EndpointResponse<E>, Error, CallInput<E>>({
    mutationFn: (input) => session.call(endpoint, input),
    meta: options.formErrors === true ? { formErrors: true } : undefined,
    onSuccess: async () => {
      await Promise.all(
        (options.invalidates ?? []).map((stale) => queryClient.invalidateQueries({ queryKey: ['api', stale.id] })),
      );
    },
  });
}
