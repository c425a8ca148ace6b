import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { itemRoutes } from './items/routes.ts';
import { policyRoutes } from './policies/routes.ts';
import { apiRecorders } from '../api-recorders.ts';

/**
 * Lambda entry of the `supervision` endpoint group: the policies (policies/routes.ts) and the review queue with its
 * reports (items/routes.ts).
 */
export const handler = createApiHandler({
  group: 'supervision',
  recorders: apiRecorders,
  endpoints: supervisionEndpoints,
  routes: {
    ...policyRoutes,
    ...itemRoutes,
  },
  // A preview reads past messages' text from the processed bucket and notes from the sealed meta (the tenant's key);
  // an apply starts its job. The queue itself is DynamoDB only.
  dependencies: dependenciesWith(blobStoreAdapter, keyServiceAdapter, jobRunnerAdapter),
});
