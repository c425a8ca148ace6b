import { caseEndpoints } from '#shared/contract/endpoints/cases.ts';
import { productionEndpoints } from '#shared/contract/endpoints/productions.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { caseRoutes } from './routes.ts';
import { productionRoutes } from './productions/routes.ts';
import { apiRecorders } from '../api-recorders.ts';

/**
 * Lambda entry of the `cases` endpoint group: cases (matters, routes.ts) and their productions (productions/), each
 * seen only by the case team. Placing and releasing a case's legal holds goes through the account-data area.
 */
export const handler = createApiHandler({
  group: 'cases',
  recorders: apiRecorders,
  endpoints: [...caseEndpoints, ...productionEndpoints],
  routes: { ...caseRoutes, ...productionRoutes },
  // A production starts its job (the transfer jobs function), selects recordings and signs its download link.
  dependencies: dependenciesWith(blobStoreAdapter, jobRunnerAdapter),
});
