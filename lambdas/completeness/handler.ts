import { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reportRoutes } from './reports/routes.ts';
import { apiRecorders } from '../api-recorders.ts';

/**
 * Lambda entry of the `completeness` endpoint group: the capture completeness reports (reports/routes.ts), read from
 * the per-day counters and the ledger entries. DynamoDB only: the table-only dependencies, no bucket, no job.
 */
export const handler = createApiHandler({
  group: 'completeness',
  recorders: apiRecorders,
  endpoints: completenessEndpoints,
  routes: reportRoutes,
});
