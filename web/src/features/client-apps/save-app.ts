import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { useEndpointMutation } from '../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listApps } from './list-apps.ts';

/** `POST account/apps/{app_reference}`: register a client app (409 when the reference is taken). */
export const createApp = endpointOf(accessEndpoints, 'admin.apps.create');
/** `PUT account/apps/{app_reference}`: replace a client app's configuration. */
export const updateApp = endpointOf(accessEndpoints, 'admin.apps.update');
const getApp = endpointOf(accessEndpoints, 'admin.apps.get');

export function useCreateApp() {
  return useEndpointMutation(createApp, { invalidates: [listApps, getApp] });
}

export function useUpdateApp() {
  return useEndpointMutation(updateApp, { invalidates: [listApps, getApp] });
}
