import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET payloads`, `GET devices/{ref}/payloads` and `GET users/{ref}/payloads`: one list call, three scopes. */
export const listPayloads = endpointOf(payloadEndpoints, 'client.payloads.list');
export const listDevicePayloads = endpointOf(payloadEndpoints, 'client.devices.payloads');
export const listUserPayloads = endpointOf(payloadEndpoints, 'client.users.payloads');

/** Whose recordings a list shows: the tenant's (as the caller's groups allow), one device's or one device user's. */
export type PayloadScope = { device: string } | { deviceUser: string } | Record<string, never>;

/** The filters every scope takes (the tenant list also takes device and device-user references). */
export type PayloadListQuery = NonNullable<Parameters<typeof useCursorList<typeof listPayloads>>[1]['query']>;

/**
 * The cursor list of one scope. The endpoint and its params are in the query key (api-hooks), so a device's list
 * never serves a device user's. A device or device-user scope drops the tenant-only filters.
 */
export function usePayloadList(scope: PayloadScope, query: PayloadListQuery, options: { enabled?: boolean } = {}) {
  const { device_reference, device_user_reference, ...scoped } = query;
  const request =
    'device' in scope
      ? { endpoint: listDevicePayloads, input: { params: { device_reference: scope.device }, query: scoped } }
      : 'deviceUser' in scope
        ? { endpoint: listUserPayloads, input: { params: { device_user_reference: scope.deviceUser }, query: scoped } }
        : { endpoint: listPayloads, input: { query: { ...scoped, device_reference, device_user_reference } } };
  // The three endpoints answer the same page shape; the hook only needs one of their types.
  return useCursorList(request.endpoint as typeof listPayloads, request.input as { query: PayloadListQuery }, options);
}
