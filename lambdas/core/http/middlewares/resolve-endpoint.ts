import type { Endpoint } from '#shared/contract/endpoint.ts';
import { NotFoundError } from '../../errors.ts';
import { pipelineState, type PipelineMiddleware } from './pipeline-state.ts';

/** Which endpoint the request is for, by its route key (`GET /api/v1/{client}/devices`); one this function does not serve is a 404. */
export function resolveEndpoint(routeTable: ReadonlyMap<string, Endpoint>): PipelineMiddleware {
  return {
    before: (request) => {
      const endpoint = routeTable.get(request.event.routeKey);
      if (endpoint === undefined) throw new NotFoundError(`No route ${String(request.event.routeKey).slice(0, 200)}`);
      pipelineState(request).endpoint = endpoint;
    },
  };
}
