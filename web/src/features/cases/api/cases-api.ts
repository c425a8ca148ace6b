import { useSuspenseQuery } from '@tanstack/react-query';
import { caseEndpoints } from '#shared/contract/endpoints/cases.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CaseState } from '#shared/constants/cases.ts';
import { sessionQueryOptions, useCursorList, useEndpointMutation, useEndpointQuery } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';

/** `GET cases`: the cases of the caller's teams, newest first. */
export const listCases = endpointOf(caseEndpoints, 'client.cases.list');
/** `GET cases/people`: the tenant's portal users by name (team and portal-user custodians are picked from them). */
export const listCasePeople = endpointOf(caseEndpoints, 'client.cases.people');
/** `POST cases`: open a case. */
export const createCase = endpointOf(caseEndpoints, 'client.cases.create');
/** `GET cases/{case_ref}`. */
export const getCase = endpointOf(caseEndpoints, 'client.cases.get');
/** `PUT cases/{case_ref}`: change an open case. */
export const updateCase = endpointOf(caseEndpoints, 'client.cases.update');
/** `POST cases/{case_ref}/close`. */
export const closeCase = endpointOf(caseEndpoints, 'client.cases.close');

export function useCases(state: CaseState | undefined) {
  return useCursorList(listCases, { query: state === undefined ? {} : { state } });
}

/** The tenant's portal users (the first 100, the page maximum), named for pickers and the case page. */
export function useCasePeople() {
  const query = useEndpointQuery(listCasePeople, { query: { limit: '100' } }, { staleTime: 60_000 });
  return { people: query.data !== undefined && 'data' in query.data ? query.data.data : [], isLoading: query.isLoading };
}

export function caseQueryOptions(session: Session, caseRef: string) {
  return sessionQueryOptions(session, getCase, { params: { case_ref: caseRef } });
}

/** The case its route's loader ensured; suspends while it is not there. */
export function useCase(caseRef: string) {
  const { session } = useSession();
  return useSuspenseQuery(caseQueryOptions(session, caseRef));
}

export function useCreateCase() {
  return useEndpointMutation(createCase, { invalidates: [listCases], formErrors: true });
}

export function useUpdateCase() {
  return useEndpointMutation(updateCase, { invalidates: [listCases, getCase], formErrors: true });
}

export function useCloseCase() {
  return useEndpointMutation(closeCase, { invalidates: [listCases, getCase] });
}
