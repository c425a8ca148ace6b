import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Endpoint, EndpointGroup } from '#shared/contract/endpoint.ts';
import type { Dependencies } from '../dependencies.ts';
import type { ActivityLog } from '../ports/activity-log.ts';
import { measureCapacity } from '../ports/capacity-meter.ts';
import type { SecurityAlerts } from '../ports/security-alerts.ts';
import { authenticateCaller } from './middlewares/authenticate.ts';
import { authorizeCall } from './middlewares/authorize.ts';
import { errorResponse } from './middlewares/error-response.ts';
import { handOverRouteCall, invokeRoute } from './middlewares/invoke-route.ts';
import { parseInput } from './middlewares/parse-input.ts';
import type { PipelineContext, PipelineInternal } from './middlewares/pipeline-state.ts';
import { recordActivity } from './middlewares/record-activity.ts';
import { recordBeforeActing } from './middlewares/record-before-acting.ts';
import { requestLog } from './middlewares/request-log.ts';
import { resolveEndpoint } from './middlewares/resolve-endpoint.ts';
import { serializeResponse } from './middlewares/serialize-response.ts';
import { validateResponse } from './middlewares/validate-response.ts';
import type { Routes } from './route.ts';

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * What the pipeline records through, implemented outside core (the audit trail and the alerts areas) and wired by
 * each API function's handler: lambdas/api-recorders.ts.
 */
export interface CallRecorders {
  /** One activity record per authenticated call; a record that cannot be written fails the call. */
  activityLog: ActivityLog;
  /** Security alerts for refused client-app tokens and calls from outside the caller's CIDR ranges. */
  securityAlerts: SecurityAlerts;
}

export interface HttpHandlerOptions {
  group: EndpointGroup;
  /** The endpoint registry (all groups); this handler serves the ones of `group`. */
  endpoints: readonly Endpoint[];
  routes: Routes;
  /** Built on first request when a function, so importing a handler reads no environment. */
  dependencies: Dependencies | (() => Dependencies);
  recorders: CallRecorders;
}

/** The group's endpoints by route key (`<METHOD> <fullPath>`); a clash, or a route for no endpoint of the group, fails at load. */
function routeTableOf(options: HttpHandlerOptions): Map<string, Endpoint> {
  const table = new Map<string, Endpoint>();
  for (const endpoint of options.endpoints) {
    if (endpoint.group !== options.group) continue;
    const key = `${endpoint.method} ${endpoint.fullPath}`;
    if (table.has(key)) throw new Error(`Two endpoints of group ${options.group} share the route ${key}`);
    table.set(key, endpoint);
  }
  const ids = new Set([...table.values()].map((endpoint) => endpoint.id));
  for (const id of Object.keys(options.routes)) {
    if (!ids.has(id)) throw new Error(`Route ${id} is not an endpoint of group ${options.group}`);
  }
  return table;
}

/**
 * The HTTP stack over an explicit endpoint list (createApiHandler binds it to the registry; see it for the event
 * contract): one middy middleware per step, in ./middlewares/, sharing the request's state through
 * ./middlewares/pipeline-state.ts. `before` hooks run in the order below; `after` and `onError` in reverse, so the
 * error answer is made first, the activity record sees the final status, and the request log comes last.
 */
export function createHttpHandler(options: HttpHandlerOptions): ApiHandler {
  const routeTable = routeTableOf(options);
  const { dependencies, recorders } = options;
  const resolveDependencies = typeof dependencies === 'function' ? dependencies : () => dependencies;

  const pipeline = middy<APIGatewayProxyEventV2, unknown, Error, PipelineContext, PipelineInternal>(invokeRoute(options.routes))
    .use(requestLog(resolveDependencies))
    .use(recordActivity(recorders.activityLog))
    .use(serializeResponse)
    .use(resolveEndpoint(routeTable))
    .use(parseInput)
    .use(authenticateCaller(recorders.securityAlerts))
    .use(authorizeCall(recorders.securityAlerts))
    .use(recordBeforeActing(recorders.activityLog))
    .use(handOverRouteCall)
    .use(validateResponse)
    .use(errorResponse);

  // Every answer leaves through the serialize or error step as a structured result. Each request runs with a capacity
  // meter of its own in scope: the table store adds every call to it, and the request log reports the sum.
  const handler = pipeline as unknown as ApiHandler;
  return async (event, context) => (await measureCapacity(() => handler(event, context))).result;
}
