import { describePrincipal } from '../../auth/principal.ts';
import type { Dependencies } from '../../dependencies.ts';
import { HttpError } from '../../errors.ts';
import { createLogger } from '../../logger.ts';
import { reportCapacity } from '../../capacity-report.ts';
import { currentCapacityMeter, ROUTE_CAPACITY } from '../../ports/capacity-meter.ts';
import { answerOf } from './answer.ts';
import { pipelineState, requestIdOf, type PipelineMiddleware, type PipelineRequest } from './pipeline-state.ts';

/** Used only when the dependencies themselves cannot be built (bad configuration). */
const fallbackLogger = createLogger();

/**
 * The first step: starts the request's clock and resolves the dependencies (per request, not kept: the provider,
 * the composition root, memoises and may rebuild after a reset). Registered first, so its `after` and `onError` run
 * last and log the final answer: one JSON line per request with id, route, status, duration and principal; never a
 * token or a body. Then what the request consumed of the table (the meter create-http-handler.ts scopes per request):
 * a debug line, and an EMF metric line in AWS.
 */
export function requestLog(resolveDependencies: () => Dependencies): PipelineMiddleware {
  return {
    before: (request) => {
      const state = pipelineState(request);
      state.dependencies = resolveDependencies();
    },
    after: logRequest,
    onError: logRequest,
  };
}

function logRequest(request: PipelineRequest): void {
  const state = pipelineState(request);
  const status = answerOf(request)?.statusCode ?? 500;
  const fields: Record<string, unknown> = {
    request_id: requestIdOf(request),
    route: request.event.routeKey,
    endpoint: state.endpoint?.id,
    status,
    duration_ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
    principal: describePrincipal(state.principal),
  };
  const logger = state.dependencies?.logger ?? fallbackLogger;
  // A 501 is an expected answer while capabilities are being built, not a fault: no stack trace for it.
  const fault = status >= 500 && !(request.error instanceof HttpError && request.error.expose);
  if (fault) logger.error('request', { ...fields, error: request.error ?? undefined });
  else logger.info('request', { ...fields, ...(request.error ? { error: request.error.name } : {}) });
  const meter = currentCapacityMeter();
  if (meter !== undefined && state.dependencies !== undefined) {
    reportCapacity(state.dependencies, { endpoint: state.endpoint?.id ?? request.event.routeKey }, meter.totals(), {
      requestId: requestIdOf(request),
      route: meter.totals(ROUTE_CAPACITY),
    });
  }
}
