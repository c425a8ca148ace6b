import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { SupervisionPolicy } from '#shared/contract/entities/supervision.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList, useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET supervision/policies`. */
export const listPolicies = endpointOf(supervisionEndpoints, 'admin.supervision.policies.list');

type PolicyListQuery = NonNullable<CallInput<typeof listPolicies>['query']>;

/** A policy whose apply run is still moving: the list asks again until it is not. */
export const applyRunning = (policy: SupervisionPolicy): boolean => policy.last_apply?.state === 'Running';

/** The policies page by page, polled while one of them is being applied to a past period. */
export function usePolicies(query: PolicyListQuery) {
  return useCursorList(listPolicies, { query }, { pollWhile: applyRunning });
}

/**
 * The first 100 policies (the page maximum) for the term tester's Ignore policies and the reports' names; a tenant
 * with more sees the first hundred's ignore terms, which the tester says.
 */
export function usePolicyChoices(options: { enabled?: boolean } = {}) {
  const query = useEndpointQuery(listPolicies, { query: { limit: '100' } }, { staleTime: 30_000, ...options });
  return { policies: query.data?.data ?? [], isPartial: query.data?.last_key !== undefined, isLoading: query.isLoading };
}
