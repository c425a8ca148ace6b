import { useSuspenseQuery } from '@tanstack/react-query';
import { erasureRequestEndpoints } from '#shared/contract/endpoints/erasure-requests.ts';
import { deviceEndpoints } from '#shared/contract/endpoints/devices.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { ErasureRequest, ErasureState } from '#shared/contract/entities/erasure-requests.ts';
import { PENDING_POLL_MS, sessionQueryOptions, useCursorList, useEndpointMutation, useEndpointQuery } from '../../../lib/api-hooks.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';
import { isRunning } from '../erasure-model.ts';

/** `GET account/erasure_requests`: requests about device users in the caller's groups, newest first. */
export const listErasureRequests = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.list');
/** `GET account/erasure_requests/{erasure_request_reference}`: one request, its decision, review and report. */
export const getErasureRequest = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.get');
/** `POST account/erasure_requests`: record a request; the decision job starts at once. */
export const createErasureRequest = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.create');
/** `POST account/erasure_requests/{erasure_request_reference}/review`: approve (erasure runs) or reject. */
export const reviewErasureRequest = endpointOf(erasureRequestEndpoints, 'client.erasure-requests.review');
/** `GET users`: the person picker of "Record a request", and the name of a person a request does not name. */
export const searchDeviceUsers = endpointOf(deviceEndpoints, 'admin.users.list');
export const getDeviceUser = endpointOf(deviceEndpoints, 'admin.users.get');

/** The list, asked again while some request's job is still walking or erasing (its state moves by itself). */
export function useErasureRequests(state: ErasureState | undefined) {
  return useCursorList(listErasureRequests, { query: state === undefined ? {} : { erasure_state: state } }, { pollWhile: isRunning });
}

export function erasureRequestQueryOptions(session: Session, reference: string) {
  return sessionQueryOptions(session, getErasureRequest, { params: { erasure_request_reference: reference } });
}

/** The request its route's loader ensured; asked again every few seconds while a job works on it. */
export function useErasureRequest(reference: string) {
  const { session } = useSession();
  return useSuspenseQuery({
    ...erasureRequestQueryOptions(session, reference),
    refetchInterval: (query) => (query.state.data !== undefined && isRunning(query.state.data as ErasureRequest) ? PENDING_POLL_MS : false),
  });
}

/** Up to 20 device users, offboarded people included, whose reference, name or e-mail matches (2 letters at least). */
export function useDeviceUserSearch(search: string) {
  return useEndpointQuery(searchDeviceUsers, { query: { limit: '20', ...(search.length >= 2 ? { search } : {}) } }, { staleTime: 30_000 });
}

/** A device user's record, for the name of a person a request recorded before names were kept with it. */
export function useDeviceUser(reference: string, enabled: boolean) {
  return useEndpointQuery(getDeviceUser, { params: { device_user_reference: reference } }, { enabled, staleTime: 300_000 });
}

export function useCreateErasureRequest() {
  return useEndpointMutation(createErasureRequest, { invalidates: [listErasureRequests], formErrors: true });
}

export function useReviewErasureRequest() {
  return useEndpointMutation(reviewErasureRequest, { invalidates: [listErasureRequests, getErasureRequest], formErrors: true });
}
