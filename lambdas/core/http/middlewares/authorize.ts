import { callAction } from '#shared/contract/endpoint.ts';
import { authorize, CidrRefusedError, resolveAccess } from '../../auth/access/resolve-access.ts';
import type { SecurityAlerts } from '../../ports/security-alerts.ts';
import { pipelineState, required, type PipelineMiddleware } from './pipeline-state.ts';

/**
 * What the caller may do (lambdas/core/auth/access/resolve-access.ts: roles, account and app CIDR ranges, support
 * access), kept as the call's access, then the endpoint's action checked against it: a 403 that says why. A refusal
 * because of the caller's network address raises a security alert. Devices and public calls have no roles.
 */
export function authorizeCall(securityAlerts: SecurityAlerts): PipelineMiddleware {
  return {
    before: async (request) => {
      const state = pipelineState(request);
      const principal = state.principal;
      if (principal === undefined || principal.kind === 'device') return;
      const endpoint = required(state, 'endpoint');
      const dependencies = required(state, 'dependencies');
      const input = required(state, 'input');
      const pathClient = input.client;
      const resolved = await resolveAccess(dependencies, {
        endpoint,
        principal,
        client: pathClient,
        ip: request.event.requestContext?.http?.sourceIp,
      });
      state.access = resolved.access;
      try {
        authorize(resolved, endpoint, input.query);
      } catch (error) {
        // The tenant check already ran: the path's tenant is the caller's own (or the one support mode acts in).
        if (error instanceof CidrRefusedError) {
          await securityAlerts.raise(dependencies, pathClient ?? principal.client, {
            kind: 'cidr-refused',
            userId: principal.kind === 'client-app' ? principal.appReference : principal.subject,
            userLabel: principal.kind === 'client-app' ? `Client app ${principal.appReference}` : (principal.email ?? principal.subject),
            ip: resolved.access.ip,
            action: callAction(endpoint, input.query),
            reason: error.message,
          });
        }
        throw error;
      }
    },
  };
}
