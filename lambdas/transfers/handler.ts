import { transferEndpoints } from '#shared/contract/endpoints/transfers.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';

/** Lambda entry of the `transfers` endpoint group. Nothing is implemented yet: every endpoint answers 501 after validation and auth. */
export const handler = createApiHandler({ group: 'transfers', endpoints: transferEndpoints, routes: {} });
