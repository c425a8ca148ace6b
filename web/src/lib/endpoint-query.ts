import { queryOptions } from '@tanstack/react-query';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { callEndpoint, type CallInput, type CallOptions, type EndpointResponse } from './api-client.ts';

/**
 * Query keys and options for registry endpoints: the pattern every screen's `api/` file uses
 * (the loader calls `queryClient.ensureQueryData(x)`, the component `useSuspenseQuery(x)`).
 *
 * Every argument the call sends is part of the key: the tenant, path parameters and query. Leave
 * one out and one tenant's cached answer would serve another (Fleet's frontend rule).
 */
export function endpointQueryKey<E extends Endpoint>(endpoint: E, input: CallInput<E>) {
  const { client, params, query } = input as { client?: string; params?: object; query?: object };
  return ['api', endpoint.id, client ?? null, params ?? {}, query ?? {}] as const;
}

/** Query options for a read endpoint; the query's abort signal cancels the fetch. */
export function endpointQueryOptions<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: Omit<CallOptions, 'signal'> = {},
) {
  return queryOptions<EndpointResponse<E>>({
    queryKey: endpointQueryKey(endpoint, input),
    queryFn: ({ signal }) => callEndpoint(endpoint, input, { ...options, signal }),
  });
}
