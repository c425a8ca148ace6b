import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { getApp } from './get-app.ts';
import { listApps } from './list-apps.ts';

/** `POST account/apps/{app_reference}`: register a client app (409 when the reference is taken). */
export const createApp = endpointOf(accessEndpoints, 'admin.apps.create');

export function useCreateApp() {
  return useEndpointMutation(createApp, { invalidates: [listApps, getApp] });
}
