import { caseEndpoints } from '#shared/contract/endpoints/cases.ts';
import { productionEndpoints } from '#shared/contract/endpoints/productions.ts';
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
});
