import type { Endpoint, EndpointGroup } from '#shared/contract/endpoint.ts';
import { getTableDependencies } from '../function-dependencies.ts';
import type { Dependencies } from '../dependencies.ts';
import { createHttpHandler, type ApiHandler, type CallRecorders } from './create-http-handler.ts';
import type { Routes } from './route.ts';

/**
 * The Lambda handler for one endpoint group (`lambdas/<group>/handler.ts` exports it as `handler`).
 *
 * Event contract, identical behind API Gateway (HTTP API, payload format 2.0) and the local server:
 * an APIGatewayProxyEventV2 with
 * - `routeKey`: `<METHOD> <endpoint.fullPath>`, e.g. `GET /api/v1/{client}/devices/{device_reference}`;
 * - `rawPath`; `pathParameters` (decoded, including `client` on admin and client surfaces);
 * - `queryStringParameters` (decoded; repeated keys joined with commas);
 * - `headers` with lower-case names (`authorization`, `content-type`, …);
 * - `body` and `isBase64Encoded`;
 * - `requestContext.http.{method, sourceIp, userAgent}` and `requestContext.requestId`.
 * It answers an APIGatewayProxyStructuredResultV2 with a JSON body.
 *
 * Per request, in order: route by `routeKey` (unknown: 404) -> validate params, query and body (400 with
 * `params.` / `query.` / `body.` lines; 413 over 1 MiB) -> authenticate by the endpoint's auth kind (401) ->
 * tenant check (403) -> the implementation, or 501 `Not implemented yet: <METHOD> <fullPath> (<id>)`.
 * Dependencies default to the table-only ones (function-dependencies.ts), built on the first request; a group whose
 * endpoints use other ports passes `dependenciesWith(...)` their adapters.
 *
 * `endpoints` is the group's own list (`shared/contract/endpoints/<group>.ts`), not the registry: a function's
 * bundle then holds only its group's schemas. A list naming another group fails at load.
 */
export function createApiHandler(options: {
  group: EndpointGroup;
  endpoints: readonly Endpoint[];
  routes: Routes;
  dependencies?: Dependencies | (() => Dependencies);
  /** The activity log and security alerts, implemented by their areas: every handler passes lambdas/api-recorders.ts. */
  recorders: CallRecorders;
}): ApiHandler {
  const strangers = options.endpoints.filter((endpoint) => endpoint.group !== options.group).map((endpoint) => endpoint.id);
  if (options.endpoints.length === 0 || strangers.length > 0) {
    throw new Error(`The ${options.group} handler needs its group's endpoints${strangers.length > 0 ? `, not ${strangers.join(', ')}` : ''}`);
  }
  return createHttpHandler({
    group: options.group,
    endpoints: options.endpoints,
    routes: options.routes,
    dependencies: options.dependencies ?? getTableDependencies,
    recorders: options.recorders,
  });
}
