import { accountDataEndpoints } from '#shared/contract/endpoints/account-data.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';

/** Lambda entry of the `account-data` endpoint group. Nothing is implemented yet: every endpoint answers 501 after validation and auth. */
export const handler = createApiHandler({ group: 'account-data', endpoints: accountDataEndpoints, routes: {} });
