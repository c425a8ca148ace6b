import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getApp } from './get-app.ts';
import { listApps } from './list-apps.ts';

/** `PUT account/apps/{app_reference}`: replace a client app's configuration. */
export const updateApp = endpointOf(accessEndpoints, 'admin.apps.update');

export function useUpdateApp() {
  return useEndpointMutation(updateApp, { invalidates: [listApps, getApp] });
}
