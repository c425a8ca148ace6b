import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { commentRoutes } from './comments/routes.ts';
import { payloadReadRoutes } from './read-routes.ts';

/** Lambda entry of the `payloads` endpoint group: lists, detail, data, audit, restore and receipts (read-routes.ts). */
export const handler = createApiHandler({ group: 'payloads', endpoints: payloadEndpoints, routes: { ...payloadReadRoutes, ...commentRoutes } });
