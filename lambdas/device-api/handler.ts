import { createApiHandler } from '#core/http/create-api-handler.ts';
import { deviceApiRoutes } from './routes.ts';

/**
 * Lambda entry of the `device-api` endpoint group: authentication, keys and device alerts. Commands, logs,
 * telemetry, GPS and payloads still answer 501 after validation and device-token auth.
 */
export const handler = createApiHandler({ group: 'device-api', routes: deviceApiRoutes });
