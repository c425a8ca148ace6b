import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Endpoint, EndpointGroup } from '#shared/contract/endpoint.ts';
import type { AccessContext } from '../auth/access/access-context.ts';
import { authorize, CidrRefusedError, resolveAccess } from '../auth/access/resolve-access.ts';
import { raiseSecurityAlert } from '../../alerts/security-events.ts';
import { ClientAppTokenRefusedError } from '../auth/client-app-tokens.ts';
import { DeviceTokenRefusedError, type DeviceCallPrincipal } from '../auth/device-token.ts';
import { deviceOf, deviceOfAuthentication, openDeviceCall, recordDeviceCall as writeDeviceCall } from '../../audit/trail/record-device-activity.ts';
import { describePrincipal, type Principal } from '../auth/principal.ts';
import type { Dependencies } from '../dependencies.ts';
import { HttpError, InternalError, NotFoundError, NotImplementedError, toErrorResponse } from '../errors.ts';
import { createLogger, type Logger } from '../logger.ts';
import { authenticate, checkTenant } from './authenticate.ts';
import type { ActivityRecordRef } from '../../audit/trail/activity-log.ts';
import { activityEntry, ActivityNotRecordedError, openActivity, recordActivity as writeActivity, recordsBeforeActing } from './activity.ts';
import { parseRequest, type ParsedInput } from './parse-request.ts';
import { Reply } from './reply.ts';
import type { RouteInput, Routes } from './route.ts';

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface HttpHandlerOptions {
  group: EndpointGroup;
  /** The endpoint registry (all groups); this handler serves the ones of `group`. */
  endpoints: readonly Endpoint[];
  routes: Routes;
  /** Built on first request when a function, so importing a handler reads no environment. */
  dependencies: Dependencies | (() => Dependencies);
}

/** Per-request state the middlewares share. */
interface RequestState {
  startedAt: number;
  /** Wall-clock start from the dependencies' clock (user activity times). */
  startedAtTime?: Date;
  dependencies?: Dependencies;
  endpoint?: Endpoint;
  input?: ParsedInput;
  principal?: Principal;
  access?: AccessContext;
  /** A device whose token was read but refused (its refusal is still its device activity). */
  refusedDevice?: { client: string; deviceReference: string };
  /** The call's activity record, written before it acted (a change); closed with the outcome. */
  openedActivity?: ActivityRecordRef;
  /** The call's record could not be written: it answers 500 and is not recorded again. */
  activityFailed?: boolean;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** Used only when the dependencies themselves cannot be built (bad configuration). */
const fallbackLogger = createLogger();

function routeKeyOf(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.fullPath}`;
}

function requestIdOf(event: APIGatewayProxyEventV2, context: Context | undefined): string {
  return event.requestContext?.requestId ?? context?.awsRequestId ?? 'unknown';
}

/**
 * The HTTP stack over an explicit endpoint list (createApiHandler binds it to the registry). See createApiHandler
 * for the event contract.
 */
export function createHttpHandler(options: HttpHandlerOptions): ApiHandler {
  const table = new Map<string, Endpoint>();
  for (const endpoint of options.endpoints) {
    if (endpoint.group !== options.group) continue;
    const key = routeKeyOf(endpoint);
    if (table.has(key)) throw new Error(`Two endpoints of group ${options.group} share the route ${key}`);
    table.set(key, endpoint);
  }
  const ids = new Set([...table.values()].map((endpoint) => endpoint.id));
  for (const id of Object.keys(options.routes)) {
    if (!ids.has(id)) throw new Error(`Route ${id} is not an endpoint of group ${options.group}`);
  }

  // Resolved per request, not kept: the provider (the composition root) memoises, and may rebuild after a reset.
  const resolveDependencies = (): Dependencies =>
    typeof options.dependencies === 'function' ? options.dependencies() : options.dependencies;

  const states = new WeakMap<object, RequestState>();
  const stateOf = (event: APIGatewayProxyEventV2): RequestState => {
    let state = states.get(event);
    if (state === undefined) {
      state = { startedAt: performance.now() };
      states.set(event, state);
    }
    return state;
  };
  const loggerOf = (state: RequestState): Logger => state.dependencies?.logger ?? fallbackLogger;

  type MiddyRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 | unknown, Error, Context>;

  /** One JSON line per request: id, route, status, duration, principal. No tokens, no bodies. */
  const requestLog = {
    before: (request: MiddyRequest) => {
      stateOf(request.event).dependencies = resolveDependencies();
    },
    after: (request: MiddyRequest) => logRequest(request),
    onError: (request: MiddyRequest) => logRequest(request),
  };
  const logRequest = (request: MiddyRequest) => {
    const state = stateOf(request.event);
    const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
    const status = response?.statusCode ?? 500;
    const fields: Record<string, unknown> = {
      request_id: requestIdOf(request.event, request.context),
      route: request.event.routeKey,
      endpoint: state.endpoint?.id,
      status,
      duration_ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
      principal: describePrincipal(state.principal),
    };
    const logger = loggerOf(state);
    // A 501 is an expected answer while capabilities are being built, not a fault: no stack trace for it.
    const fault = status >= 500 && !(request.error instanceof HttpError && request.error.expose);
    if (fault) logger.error('request', { ...fields, error: request.error ?? undefined });
    else logger.info('request', { ...fields, ...(request.error ? { error: request.error.name } : {}) });
  };

  // Validate before authenticating: the contract is public (openapi.json), so a 400 reveals nothing, and malformed
  // input gets the same clear answer from every caller.
  const resolveAndParse = {
    before: (request: MiddyRequest) => {
      const state = stateOf(request.event);
      const endpoint = table.get(request.event.routeKey);
      if (endpoint === undefined) throw new NotFoundError(`No route ${String(request.event.routeKey).slice(0, 200)}`);
      state.endpoint = endpoint;
      state.input = parseRequest(endpoint, request.event);
    },
  };

  const authenticateAndCheckTenant = {
    before: async (request: MiddyRequest) => {
      const state = stateOf(request.event);
      const endpoint = state.endpoint as Endpoint;
      const client = state.input?.client;
      if (endpoint.auth !== 'public') state.startedAtTime = (state.dependencies as Dependencies).clock.now();
      const dependencies = state.dependencies as Dependencies;
      try {
        state.principal = await authenticate(endpoint, request.event.headers ?? {}, dependencies, client);
      } catch (error) {
        if (error instanceof DeviceTokenRefusedError) state.refusedDevice = error.device;
        // Only raised for the path's tenant (the one whose app it claimed to be); the 401 stands either way.
        if (error instanceof ClientAppTokenRefusedError && client !== undefined) {
          await raiseSecurityAlert(dependencies, client, {
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

  /** Roles, account and app CIDR ranges, support access: the caller's access, then the endpoint's action (403). */
  const authorizeCall = {
    before: async (request: MiddyRequest) => {
      const state = stateOf(request.event);
      const principal = state.principal;
      if (principal === undefined || principal.kind === 'device') return;
      const endpoint = state.endpoint as Endpoint;
      const resolved = await resolveAccess(state.dependencies as Dependencies, {
        endpoint,
        principal,
        client: state.input?.client,
        ip: request.event.requestContext?.http?.sourceIp,
      });
      state.access = resolved.access;
      try {
        authorize(resolved, endpoint);
      } catch (error) {
        // The tenant check already ran: the path's tenant is the caller's own (or the one support mode acts in).
        if (error instanceof CidrRefusedError) {
          await raiseSecurityAlert(state.dependencies as Dependencies, state.input?.client ?? principal.client, {
            kind: 'cidr-refused',
            userId: principal.kind === 'client-app' ? principal.appReference : principal.subject,
            userLabel: principal.kind === 'client-app' ? `Client app ${principal.appReference}` : (principal.email ?? principal.subject),
            ip: resolved.access.ip,
            action: endpoint.action,
            reason: error.message,
          });
        }
        throw error;
      }
    },
  };

  /**
   * One activity record per authenticated call, allowed or refused, once its status is known (DESIGN.md §8), written
   * by the call itself (lambdas/audit/trail/activity-log.ts; a change's record was opened before it acted and is
   * closed here). Registered right after the request log, so its `after` sees the serialised response and its
   * `onError` the error response. Nothing is recorded best-effort: a record that cannot be written turns the answer
   * into a 500 (from `after` by throwing; from `onError` by replacing the response).
   */
  const recordActivity = async (request: MiddyRequest) => {
    const state = stateOf(request.event);
    if (state.activityFailed) return;
    try {
      if (await recordDeviceCall(request, state)) return;
      if (state.principal === undefined || state.principal.kind === 'device' || state.endpoint === undefined) return;
      const dependencies = state.dependencies as Dependencies;
      const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
      const { client, entry } = activityEntry({
        event: request.event,
        endpoint: state.endpoint,
        principal: state.principal,
        access: state.access,
        statusCode: response?.statusCode ?? 500,
        error: request.error ?? undefined,
        startedAt: state.startedAtTime ?? dependencies.clock.now(),
        endedAt: dependencies.clock.now(),
        pathClient: state.input?.client,
      });
      await writeActivity(dependencies, client, entry, requestIdOf(request.event, request.context), state.openedActivity);
    } catch (error) {
      state.activityFailed = true;
      throw error;
    }
  };
  const activity = {
    after: recordActivity,
    onError: async (request: MiddyRequest) => {
      try {
        await recordActivity(request);
      } catch (error) {
        request.error = error as Error;
        const { status, body, headers } = toErrorResponse(error);
        request.response = { statusCode: status, headers: { ...JSON_HEADERS, ...headers, 'x-request-id': requestIdOf(request.event, request.context) }, body: JSON.stringify(body) };
      }
    },
  };

  /** A call that changes something is on record before it acts (./activity.ts `recordsBeforeActing`). */
  const recordBeforeActing = {
    before: async (request: MiddyRequest) => {
      const state = stateOf(request.event);
      const endpoint = state.endpoint as Endpoint;
      const principal = state.principal;
      if (principal === undefined || !recordsBeforeActing(endpoint)) return;
      const dependencies = state.dependencies as Dependencies;
      const startedAt = state.startedAtTime ?? dependencies.clock.now();
      const requestId = requestIdOf(request.event, request.context);
      try {
        if (principal.kind === 'device') {
          const device = deviceOf(principal as DeviceCallPrincipal);
          state.openedActivity = await openDeviceCall(dependencies, { event: request.event, endpoint, device, error: undefined, startedAt }, requestId);
        } else {
          const { client, entry } = activityEntry({ event: request.event, endpoint, principal, access: state.access, error: undefined, startedAt, pathClient: state.input?.client });
          state.openedActivity = await openActivity(dependencies, client, entry, requestId);
        }
      } catch (error) {
        if (error instanceof ActivityNotRecordedError) state.activityFailed = true;
        throw error;
      }
    },
  };

  /** Device calls are DeviceActivity (lambdas/audit/trail/record-device-activity.ts), allowed or refused once the token was read. */
  const recordDeviceCall = async (request: MiddyRequest, state: RequestState): Promise<boolean> => {
    if (state.endpoint === undefined) return false;
    const response = request.response as APIGatewayProxyStructuredResultV2 | undefined;
    const device =
      state.principal?.kind === 'device'
        ? deviceOf(state.principal as DeviceCallPrincipal)
        : (state.refusedDevice ?? deviceOfAuthentication(state.endpoint, response?.body, response?.statusCode ?? 500));
    if (device === undefined) return false;
    const dependencies = state.dependencies as Dependencies;
    const facts = { event: request.event, endpoint: state.endpoint, device, statusCode: response?.statusCode ?? 500, error: request.error };
    const times = { startedAt: state.startedAtTime ?? dependencies.clock.now(), endedAt: dependencies.clock.now() };
    await writeDeviceCall(dependencies, { ...facts, ...times }, requestIdOf(request.event, request.context), state.openedActivity);
    return true;
  };

  /** In local and test mode, a response that breaks its own contract is our bug: answer 500 and log why. */
  const validateResponse = {
    after: (request: MiddyRequest) => {
      const state = stateOf(request.event);
      if (!state.dependencies?.config.VALIDATE_RESPONSES || state.endpoint === undefined) return;
      const body = request.response instanceof Reply ? request.response.body : request.response;
      const result = state.endpoint.response.safeParse(body);
      if (!result.success) {
        throw new InternalError(`Response of ${state.endpoint.id} breaks its contract`, {
          cause: result.error.issues.slice(0, 20).map((issue) => `${issue.path.join('.')}: ${issue.message}`),
        });
      }
    },
  };

  const serialize = {
    after: (request: MiddyRequest) => {
      const requestId = requestIdOf(request.event, request.context);
      const value = request.response;
      const status = value instanceof Reply ? value.status : 200;
      const body = value instanceof Reply ? value.body : value;
      const extra = value instanceof Reply ? value.headers : {};
      const headers = { ...JSON_HEADERS, ...extra, 'x-request-id': requestId };
      request.response =
        body === undefined || status === 204
          ? { statusCode: status, headers }
          : { statusCode: status, headers, body: JSON.stringify(body) };
    },
  };

  /** Registered last, so it is the first to see an error. Only statuses under 500 show their messages. */
  const errorResponse = {
    onError: (request: MiddyRequest) => {
      const { status, body, headers } = toErrorResponse(request.error);
      request.response = {
        statusCode: status,
        headers: { ...JSON_HEADERS, ...headers, 'x-request-id': requestIdOf(request.event, request.context) },
        body: JSON.stringify(body),
      };
    },
  };

  const handler = middy<APIGatewayProxyEventV2, unknown, Error, Context>()
    .use(requestLog)
    .use(activity)
    .use(serialize)
    .use(resolveAndParse)
    .use(authenticateAndCheckTenant)
    .use(authorizeCall)
    .use(recordBeforeActing)
    .use(validateResponse)
    .use(errorResponse)
    .handler(async (event, context) => {
      const state = stateOf(event);
      const endpoint = state.endpoint as Endpoint;
      const input = state.input as ParsedInput;
      const implementation = options.routes[endpoint.id];
      if (implementation === undefined) {
        throw new NotImplementedError(`Not implemented yet: ${endpoint.method} ${endpoint.fullPath} (${endpoint.id})`);
      }
      const routeInput: RouteInput = {
        params: input.params,
        query: input.query,
        body: input.body as never,
        client: input.client,
        principal: state.principal,
        access: state.access,
        requestId: requestIdOf(event, context),
      };
      return implementation(routeInput, state.dependencies as Dependencies);
    });

  return handler as unknown as ApiHandler;
}
