import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { AccessContext } from '../../auth/access/access-context.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Dependencies } from '../../dependencies.ts';
import type { ActivityRecordRef } from '../../ports/activity-log.ts';
import { InternalError } from '../../errors.ts';
import type { ParsedInput } from '../parse-request.ts';
import type { RouteInput } from '../route.ts';

/**
 * What the HTTP pipeline's middlewares learn about one request, each adding its part in order. It lives on middy's
 * `request.internal` (a fresh object per request), read and written only through `pipelineState`.
 */
export interface PipelineState {
  /** `performance.now()` when the request entered the pipeline (the logged duration). */
  startedAt: number;
  /** Wall-clock start from the dependencies' clock (activity record times); set once a caller is to be authenticated. */
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

/** What the implementation is called with. middy hands its handler only (event, context), so it rides on the context. */
export interface RouteCall {
  endpoint: Endpoint;
  input: RouteInput;
  dependencies: Dependencies;
}

export type PipelineContext = Context & { routeCall?: RouteCall };

// A type alias, not an interface: middy requires `internal` to be a plain record type.
export type PipelineInternal = { pipeline?: PipelineState };

export type PipelineRequest = middy.Request<APIGatewayProxyEventV2, unknown, Error, PipelineContext, PipelineInternal>;

/** One step of the pipeline. Its hooks must return nothing: a value returned from a middy hook ends the request early. */
export type PipelineMiddleware = middy.MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, PipelineContext, PipelineInternal>;

/** The request's pipeline state, created on first use (by the request log, the first step). */
export function pipelineState(request: PipelineRequest): PipelineState {
  request.internal.pipeline ??= { startedAt: performance.now() };
  return request.internal.pipeline;
}

type Part = Exclude<keyof PipelineState, 'startedAt'>;

/** A part an earlier step sets; missing, the pipeline was assembled out of order (our bug: 500). */
export function required<K extends Part>(state: PipelineState, part: K): NonNullable<PipelineState[K]> {
  const value = state[part];
  if (value === undefined || value === null) throw new InternalError(`HTTP pipeline out of order: no ${part} yet`);
  return value;
}

/** API Gateway's request id (the one clients see in `x-request-id`), else Lambda's. */
export function requestIdOf(request: Pick<PipelineRequest, 'event' | 'context'>): string {
  return request.event.requestContext?.requestId ?? request.context?.awsRequestId ?? 'unknown';
}
