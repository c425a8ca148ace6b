import type { EndpointGroup } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { getDependencies } from '../composition.ts';
import type { Dependencies } from '../dependencies.ts';
import { createHttpHandler, type ApiHandler } from './create-http-handler.ts';
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
 * Dependencies default to the composition root's, built on the first request.
 */
export function createApiHandler(options: {
  group: EndpointGroup;
  routes: Routes;
  dependencies?: Dependencies | (() => Dependencies);
}): ApiHandler {
  return createHttpHandler({
    group: options.group,
    endpoints: ENDPOINTS,
    routes: options.routes,
    dependencies: options.dependencies ?? getDependencies,
  });
}
