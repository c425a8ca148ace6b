import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { systemClock } from '../adapters/local/clocks.ts';
import { refuseDeviceTokens } from '../auth/device-token.ts';
import type { TokenVerifier } from '../auth/jwt-verifier.ts';
import type { Config } from '../config.ts';
import type { Dependencies } from '../dependencies.ts';
import { createLogger } from '../logger.ts';
import type { Clock } from '../ports/clock.ts';
import type { TableStore } from '../ports/table-store.ts';
import { createMemoryTable } from './memory-table.ts';

/** Test helper: the event API Gateway (and the local server) would send for an endpoint; a body goes as JSON. */
export function eventFor(
  endpoint: Pick<Endpoint, 'method' | 'fullPath'>,
  request: {
    pathParameters?: Record<string, string>;
    query?: Record<string, string>;
    body?: string;
    isBase64Encoded?: boolean;
    headers?: Record<string, string>;
    routeKey?: string;
  } = {},
): APIGatewayProxyEventV2 {
  const rawPath = endpoint.fullPath.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(request.pathParameters?.[name] ?? ''));
  return {
    version: '2.0',
    routeKey: request.routeKey ?? `${endpoint.method} ${endpoint.fullPath}`,
    rawPath,
    rawQueryString: new URLSearchParams(request.query ?? {}).toString(),
    // A body is JSON unless the test says otherwise (the pipeline answers 415 to a body of another type).
    headers: { ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
    ...(request.query ? { queryStringParameters: request.query } : {}),
    ...(request.pathParameters ? { pathParameters: request.pathParameters } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
    isBase64Encoded: request.isBase64Encoded ?? false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      requestId: 'req-1',
      routeKey: request.routeKey ?? `${endpoint.method} ${endpoint.fullPath}`,
      stage: '$default',
      time: '01/Jan/2025:00:00:00 +0000',
      timeEpoch: 0,
      http: { method: endpoint.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
    },
  };
}

export const testContext = { awsRequestId: 'aws-req-1' } as Context;

/**
 * Test helper: dependencies with only what the HTTP stack touches (tokens, the table it reads roles from, a clock);
 * the rest throws if a test strays into it. The table defaults to an empty in-memory one: no roles, so user calls
 * on tenant endpoints are refused (403) unless the test seeds roles.
 */
export function testDependencies(options: {
  tokens: TokenVerifier;
  logLines?: string[];
  validateResponses?: boolean;
  table?: TableStore;
  clock?: Clock;
}): Dependencies {
  const unused = new Proxy({}, { get: (_, name) => { throw new Error(`unexpected use of ${String(name)}`); } });
  return {
    config: { VALIDATE_RESPONSES: options.validateResponses ?? true } as Config,
    logger: createLogger({ level: 'debug', sink: (line) => options.logLines?.push(line) }),
    tokens: options.tokens,
    deviceTokens: refuseDeviceTokens,
    clock: options.clock ?? systemClock,
    table: options.table ?? createMemoryTable(),
    blobs: unused,
    keys: unused,
    identity: unused,
    scheduler: unused,
    scanner: unused,
    cursors: unused,
  } as Dependencies;
}

/** The parsed JSON body of a structured result. */
export function bodyOf(result: APIGatewayProxyStructuredResultV2): Record<string, unknown> {
  return JSON.parse(result.body ?? 'null') as Record<string, unknown>;
}
