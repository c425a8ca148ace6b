import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';

/**
 * The local stand-in for API Gateway (HTTP API): matches a request against the registry's path templates and
 * builds the same APIGatewayProxyEventV2 the deployed gateway would, so handlers cannot tell the two apart.
 * Pure functions only: the HTTP server (`http-server.ts`) does the I/O.
 */

/** The part of a registry endpoint the gateway needs. */
export interface RouteTarget {
  id: string;
  method: string;
  fullPath: string;
  group: string;
}

export type RouteMatch<T extends RouteTarget> =
  | { kind: 'matched'; endpoint: T; pathParameters: Record<string, string> }
  /** The path matches a declared template, but not with this method. */
  | { kind: 'method-not-allowed'; allowed: string[] }
  /** A segment bound to a parameter is not valid percent-encoding (API Gateway answers 400 too). */
  | { kind: 'bad-encoding'; parameter: string }
  | { kind: 'not-found' };

type Segment = { literal: string } | { param: string };

interface CompiledRoute<T extends RouteTarget> {
  endpoint: T;
  segments: Segment[];
}

function compile(template: string): Segment[] {
  return template
    .split('/')
    .slice(1)
    .map((part) => {
      const param = /^\{([a-z_]+)\}$/.exec(part);
      return param ? { param: param[1] as string } : { literal: part };
    });
}

/**
 * Literal segments win over parameters, left to right (as API Gateway does): `/devices/users` beats
 * `/devices/{device_reference}`. Compared segment by segment: a literal earlier in the path is more specific.
 */
function moreSpecific(a: Segment[], b: Segment[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const aLiteral = 'literal' in (a[index] as Segment);
    const bLiteral = 'literal' in (b[index] as Segment);
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

/** Builds a matcher over endpoint path templates. Throws when two endpoints declare the same method and template. */
export function createRouter<T extends RouteTarget>(endpoints: readonly T[]) {
  const seen = new Set<string>();
  const routes: CompiledRoute<T>[] = [];
  for (const endpoint of endpoints) {
    const key = `${endpoint.method} ${endpoint.fullPath.replace(/\{[a-z_]+\}/g, '{}')}`;
    if (seen.has(key)) throw new Error(`Two endpoints declare ${key} (second: ${endpoint.id})`);
    seen.add(key);
    routes.push({ endpoint, segments: compile(endpoint.fullPath) });
  }
  routes.sort((a, b) => moreSpecific(a.segments, b.segments));

  return function match(method: string, rawPath: string): RouteMatch<T> {
    const parts = rawPath.split('/').slice(1);
    const allowed = new Set<string>();
    for (const route of routes) {
      if (route.segments.length !== parts.length) continue;
      const bound: Array<[string, string]> = [];
      const fits = route.segments.every((segment, index) => {
        const part = parts[index] as string;
        if ('literal' in segment) return segment.literal === part;
        // A parameter never binds an empty segment: `/api/v1//profile` is not a request for client "".
        if (part === '') return false;
        bound.push([segment.param, part]);
        return true;
      });
      if (!fits) continue;
      if (route.endpoint.method !== method) {
        allowed.add(route.endpoint.method);
        continue;
      }
      const pathParameters: Record<string, string> = {};
      for (const [name, raw] of bound) {
        try {
          pathParameters[name] = decodeURIComponent(raw);
        } catch {
          return { kind: 'bad-encoding', parameter: name };
        }
      }
      return { kind: 'matched', endpoint: route.endpoint, pathParameters };
    }
    if (allowed.size > 0) return { kind: 'method-not-allowed', allowed: [...allowed].sort() };
    return { kind: 'not-found' };
  };
}

/** What the HTTP server knows about one incoming request. */
export interface IncomingRequest {
  method: string;
  /** Path and query as received (`req.url`). */
  url: string;
  /** Node's raw header list (`req.rawHeaders`): name, value, name, value… */
  rawHeaders: readonly string[];
  body: string | undefined;
  sourceIp: string;
}

/** Splits `req.url` into the raw path and raw query string, without decoding either. */
export function splitUrl(url: string): { rawPath: string; rawQueryString: string } {
  const hash = url.indexOf('#');
  const withoutHash = hash === -1 ? url : url.slice(0, hash);
  const question = withoutHash.indexOf('?');
  if (question === -1) return { rawPath: withoutHash, rawQueryString: '' };
  return { rawPath: withoutHash.slice(0, question), rawQueryString: withoutHash.slice(question + 1) };
}

/**
 * Query parameters as API Gateway v2 gives them: decoded, repeated keys joined with commas. Malformed
 * percent-encoding is kept as sent rather than failing the request; the handler's validation then judges it.
 */
export function parseQueryString(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const result: Record<string, string> = {};
  for (const pair of rawQueryString.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawKey = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    const key = safeDecode(rawKey);
    const value = safeDecode(rawValue);
    result[key] = key in result ? `${result[key]},${value}` : value;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

function safeDecode(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Headers lower-cased, repeated headers joined with commas; cookies come out separately (API Gateway v2 does). */
export function collectHeaders(rawHeaders: readonly string[]): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    const value = rawHeaders[index + 1] as string;
    if (name === 'cookie') {
      cookies.push(...value.split(';').map((cookie) => cookie.trim()).filter(Boolean));
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  return { headers, cookies };
}

/** Builds the APIGatewayProxyEventV2 for a matched request. */
export function buildEvent(
  request: IncomingRequest,
  endpoint: RouteTarget,
  pathParameters: Record<string, string>,
  now: Date = new Date(),
): APIGatewayProxyEventV2 {
  const { rawPath, rawQueryString } = splitUrl(request.url);
  const { headers, cookies } = collectHeaders(request.rawHeaders);
  const queryStringParameters = parseQueryString(rawQueryString);
  const routeKey = `${endpoint.method} ${endpoint.fullPath}`;
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(request.body !== undefined && request.body !== '' ? { body: request.body } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: request.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
  };
}

/** A Lambda context good enough for middy (which reads the remaining time) and for logging. */
export function buildContext(group: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `verity-local-${group}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:verity-local-${group}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/verity-local-${group}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The HTTP response to write for a handler's result, normalised as API Gateway v2 does. */
export interface GatewayResponse {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

/**
 * Normalises a handler result: a structured result is used as is; anything else (an object, a string) is a
 * 200 JSON body, which is what API Gateway v2 does when `statusCode` is absent.
 */
export function toGatewayResponse(result: APIGatewayProxyResultV2 | undefined): GatewayResponse {
  if (result !== null && typeof result === 'object' && 'statusCode' in result && typeof result.statusCode === 'number') {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
    const raw = result.body ?? '';
    const body = result.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
    return { statusCode: result.statusCode, headers, cookies: result.cookies ?? [], body };
  }
  const body = Buffer.from(typeof result === 'string' ? result : JSON.stringify(result ?? null), 'utf8');
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, cookies: [], body };
}
