import { accessEndpoints } from '#shared/contract/endpoints/access.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET account/apps/{app_reference}`: one client app; refreshed after every change to it. */
export const getApp = endpointOf(accessEndpoints, 'admin.apps.get');
