import { InternalError, NotImplementedError } from '../../errors.ts';
import { measureCapacity, ROUTE_CAPACITY } from '../../ports/capacity-meter.ts';
import type { RouteInput, RouteResult, Routes } from '../route.ts';
import { pipelineState, requestIdOf, required, type PipelineContext, type PipelineMiddleware } from './pipeline-state.ts';

/**
 * The last step before the implementation: what it is called with. middy gives its handler only the event and the
 * context, so the call rides on a context of this request's own (the caller's one may be shared between calls).
 */
export const handOverRouteCall: PipelineMiddleware = {
  before: (request) => {
    const state = pipelineState(request);
    const input = required(state, 'input');
    const routeInput: RouteInput = {
      params: input.params,
      query: input.query,
      // Parsed by the endpoint's own body schema; RouteInput over the generic Endpoint cannot name its type.
      body: input.body as never,
      client: input.client,
      principal: state.principal,
      access: state.access,
      requestId: requestIdOf(request),
      ...(state.openedActivity === undefined ? {} : { activity: state.openedActivity }),
    };
    const routeCall = { endpoint: required(state, 'endpoint'), input: routeInput, dependencies: required(state, 'dependencies') };
    request.context = { ...request.context, routeCall };
  },
};

/**
 * The pipeline's handler: the endpoint's implementation, `routes[endpoint.id]`, or 501 naming the endpoint while it
 * has none.
 */
export function invokeRoute(routes: Routes) {
  return async (_event: unknown, context: PipelineContext): Promise<RouteResult> => {
    const call = context.routeCall;
    if (call === undefined) throw new InternalError('HTTP pipeline out of order: no route call handed over');
    const { endpoint, input, dependencies } = call;
    const implementation = routes[endpoint.id];
    if (implementation === undefined) {
      throw new NotImplementedError(`Not implemented yet: ${endpoint.method} ${endpoint.fullPath} (${endpoint.id})`);
    }
    // Its own capacity meter, so the request's figures tell the endpoint's reads from the pipeline's around it.
    return (await measureCapacity(() => implementation(input, dependencies), ROUTE_CAPACITY)).result;
  };
}
