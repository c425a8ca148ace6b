import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { commentRoutes } from './comments/routes.ts';
import { payloadReadRoutes } from './read-routes.ts';
import { apiRecorders } from '../api-recorders.ts';

/** Lambda entry of the `payloads` endpoint group: lists, detail, data, audit, restore and receipts (read-routes.ts). */
export const handler = createApiHandler({
  group: 'payloads',
  recorders: apiRecorders,
  endpoints: payloadEndpoints,
  routes: { ...payloadReadRoutes, ...commentRoutes },
  // Downloads sign S3 links and decrypt with the tenant's key; the rest is DynamoDB.
  dependencies: dependenciesWith(blobStoreAdapter, keyServiceAdapter),
});
