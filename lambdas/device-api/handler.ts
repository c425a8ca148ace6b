import { deviceApiEndpoints } from '#shared/contract/endpoints/device-api.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { keyServiceAdapter } from '#core/adapters/wiring/key-service.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { deviceCommandRoutes } from './command-routes.ts';
import { deviceDataRoutes } from './data-routes.ts';
import { deviceLedgerRoutes } from './ledger-routes.ts';
import { devicePayloadRoutes } from './payload-routes.ts';
import { deviceApiRoutes } from './routes.ts';
import { apiRecorders } from '../api-recorders.ts';

/**
 * Lambda entry of the `device-api` endpoint group: authentication, keys, device alerts, commands, and uploads of
 * logs, telemetry and GPS (./data-routes.ts), the capture completeness ledger (./ledger-routes.ts), payload upload URL, registration and state (./payload-routes.ts).
 */
export const handler = createApiHandler({
  group: 'device-api',
  recorders: apiRecorders,
  endpoints: deviceApiEndpoints,
  routes: { ...deviceApiRoutes, ...deviceDataRoutes, ...deviceLedgerRoutes, ...deviceCommandRoutes, ...devicePayloadRoutes },
  // Registering a payload reads its object in S3 and may start its processing job; device keys come from the key service.
  dependencies: dependenciesWith(blobStoreAdapter, jobRunnerAdapter, keyServiceAdapter),
});
