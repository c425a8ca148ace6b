import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { getApp } from './get-app.ts';
import { listApps } from './list-apps.ts';

/** `DELETE account/apps/{app_reference}`: remove a client app; its tokens stop working. */
export const deleteApp = endpointOf(accessEndpoints, 'admin.apps.delete');

export function useDeleteApp() {
  return useEndpointMutation(deleteApp, { invalidates: [listApps, getApp] });
}
