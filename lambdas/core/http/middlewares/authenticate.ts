import { ClientAppTokenRefusedError } from '../../auth/client-app-tokens.ts';
import { DeviceTokenRefusedError } from '../../auth/device-token.ts';
import { authenticate, checkTenant } from '../authenticate.ts';
import type { SecurityAlerts } from '../../ports/security-alerts.ts';
import { pipelineState, required, type PipelineMiddleware } from './pipeline-state.ts';

/**
 * Who is calling, by the endpoint's auth kind (../authenticate.ts: 401), then the tenant boundary (403). A refused
 * device token keeps its device for the device's activity record; a refused client-app token raises a security
 * alert in the path's tenant. The activity clock starts here: every call that authenticates is recorded.
 */
export function authenticateCaller(securityAlerts: SecurityAlerts): PipelineMiddleware {
  return {
    before: async (request) => {
      const state = pipelineState(request);
      const endpoint = required(state, 'endpoint');
      const dependencies = required(state, 'dependencies');
      const client = required(state, 'input').client;
      if (endpoint.auth !== 'public') state.startedAtTime = dependencies.clock.now();
      try {
        state.principal = await authenticate(endpoint, request.event.headers ?? {}, dependencies, client);
      } catch (error) {
        if (error instanceof DeviceTokenRefusedError) state.refusedDevice = error.device;
        // Only raised for the path's tenant (the one whose app it claimed to be); the 401 stands either way.
        if (error instanceof ClientAppTokenRefusedError && client !== undefined) {
          await securityAlerts.raise(dependencies, client, {
            kind: 'client-app-token-refused',
            issuer: error.issuer,
            reason: error.message,
            ...(error.appReference === undefined ? {} : { appReference: error.appReference }),
          });
        }
        throw error;
      }
      checkTenant(endpoint, state.principal, client);
    },
  };
}
