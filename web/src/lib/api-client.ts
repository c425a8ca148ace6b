import type { z } from 'zod';
import type { Endpoint, Surface } from '#shared/contract/endpoint.ts';
import { describeResponseMismatch, formatIssues } from '#shared/contract/messages.ts';
import { getConfig } from '../config.ts';
import { ApiError, ResponseShapeError } from './api-error.ts';
import { wordsForError } from './error-words.ts';

/**
 * The portal's one way to call the API, driven by the endpoint registry (`shared/contract/registry.ts`).
 *
 * Path, method and schemas come from the endpoint, so a screen never writes a URL by hand, and every
 * 2xx body is checked against the endpoint's response schema before a screen sees it (spec point 5).
 */

/** Where each surface lives. Same-origin paths by default (see config.ts). */
export type SurfaceBases = Record<Surface, string>;

type ParamsOf<E extends Endpoint> = z.input<E['params']>;
type QueryOf<E extends Endpoint> = z.input<E['query']>;
/** The body schema; `never` when the endpoint takes no body (`body` is an optional property, hence the Exclude). */
type BodySchema<E extends Endpoint> = Exclude<E['body'], undefined>;
type BodySlot<E extends Endpoint> = [BodySchema<E>] extends [never]
  ? { body?: undefined }
  : Slot<'body', z.input<BodySchema<E> & z.ZodType>>;

/** A key holding `T` is optional exactly when `T` has no required fields. */
type Slot<K extends string, T> = Record<never, never> extends T ? { [P in K]?: T } : { [P in K]: T };

/** What one call sends. `client` (the tenant) is required for the admin and client surfaces. */
export type CallInput<E extends Endpoint> = { client?: string } & Slot<'params', ParamsOf<E>> &
  Slot<'query', QueryOf<E>> &
  BodySlot<E>;

/** The parsed (output) type of an endpoint's response. */
export type EndpointResponse<E extends Endpoint> = z.output<E['response']>;

/** How to send one call. */
export interface CallOptions {
  /** The user's id token; sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Support mode: the request reference; the header becomes `internal-<reference> <token>` (DESIGN.md §4). */
  supportReference?: string;
  signal?: AbortSignal;
  /** Defaults to the global `fetch`; tests pass a fake. */
  fetch?: typeof fetch;
  /** Defaults to the bases from the runtime configuration. */
  bases?: SurfaceBases;
}

/** The surface bases from the runtime configuration. */
export function basesFromConfig(): SurfaceBases {
  const config = getConfig();
  return {
    admin: config.apiBase,
    client: config.clientApiBase,
    internal: config.internalBase,
    device: config.deviceBase,
  };
}

const TENANT_SURFACES: ReadonlySet<Surface> = new Set(['admin', 'client']);

/**
 * Encodes one path segment. `.` and `..` are refused: encodeURIComponent leaves them as they are
 * and URL parsers then resolve them, so `..` would silently call the parent path.
 */
function encodeSegment(name: string, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new TypeError(`Path parameter "${name}" is missing`);
  }
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new TypeError(`Path parameter "${name}" must not be empty, "." or ".."`);
  }
  return encodeURIComponent(text);
}

/**
 * Builds the URL (path and query) for one call: the surface base, the tenant for the admin and
 * client surfaces, the endpoint's path with each `{param}` URL-encoded, then the flattened query.
 */
export function buildUrl(
  endpoint: Endpoint,
  input: { client?: string; params?: object; query?: object },
  bases: SurfaceBases,
): string {
  // `{client}` inside an internal path (`/clients/{client}/…`) is the call's client, like the tenant prefix is.
  const params = { ...(input.client === undefined ? {} : { client: input.client }), ...(input.params ?? {}) } as Record<string, unknown>;
  const path = endpoint.path.replace(/\{([a-z_]+)\}/g, (_match, name: string) =>
    encodeSegment(name, Object.hasOwn(params, name) ? params[name] : undefined),
  );
  const tenant = TENANT_SURFACES.has(endpoint.surface) ? `/${encodeSegment('client', input.client)}` : '';
  const search = new URLSearchParams(flattenQuery(input.query ?? {})).toString();
  return `${bases[endpoint.surface]}${tenant}${path}${search ? `?${search}` : ''}`;
}

/**
 * Flattens a query object to `key=value` pairs (spec point 7): arrays repeat the key, `undefined`
 * and `null` are left out, dates become ISO strings. Nested objects are refused rather than
 * guessed at: the API declares none, and `[object Object]` on the wire would hide the bug.
 */
export function flattenQuery(query: object): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      pairs.push([key, scalarToString(key, item)]);
    }
  }
  return pairs;
}

function scalarToString(key: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`Query parameter "${key}" must be a finite number`);
      return String(value);
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
      throw new TypeError(`Query parameter "${key}" must be a string, number, boolean or date`);
  }
}

function authorizationHeader(options: CallOptions): string | undefined {
  if (options.token === undefined) return undefined;
  return options.supportReference === undefined
    ? `Bearer ${options.token}`
    : `internal-${options.supportReference} ${options.token}`;
}

/**
 * Calls one endpoint and returns its checked response.
 *
 * @throws ApiError on a non-2xx answer (status, error_code and the server's message lines).
 * @throws ResponseShapeError when a 2xx body does not match `endpoint.response`.
 * @throws TypeError when the input cannot be put on the wire (missing path parameter, nested query).
 */
export async function callEndpoint<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
  options: CallOptions = {},
): Promise<EndpointResponse<E>> {
  const { client, params, query, body } = input as { client?: string; params?: object; query?: object; body?: unknown };
  const url = buildUrl(endpoint, { client, params, query }, options.bases ?? basesFromConfig());
  const headers = new Headers({ Accept: 'application/json' });
  const authorization = authorizationHeader(options);
  if (authorization !== undefined) headers.set('Authorization', authorization);
  const init: RequestInit = { method: endpoint.method, headers, signal: options.signal };
  if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(body);
  }

  const response = await (options.fetch ?? fetch)(url, init);
  const text = await response.text();
  if (!response.ok) throw toApiError(endpoint, response, text);

  const prefix = `${endpoint.method} ${endpoint.fullPath} (${endpoint.id})`;
  let json: unknown;
  try {
    // An empty body (204) stands for `undefined`; the schema decides whether that is allowed.
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ResponseShapeError(describeResponseMismatch(prefix, [], text), endpoint.id);
  }
  const checked = endpoint.response.safeParse(json);
  if (!checked.success) {
    throw new ResponseShapeError(describeResponseMismatch(prefix, formatIssues(checked.error), text), endpoint.id);
  }
  return checked.data as EndpointResponse<E>;
}

/** Maps a non-2xx answer to an ApiError, whatever its body holds (HTML from a proxy, nothing, JSON). */
function toApiError(endpoint: Endpoint, response: Response, text: string): ApiError {
  let errorCode: number | string = response.status;
  let lines: string[] = [];
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>;
      if (typeof record.error_code === 'number' || typeof record.error_code === 'string') {
        errorCode = record.error_code;
      }
      const message = record.message;
      const raw = Array.isArray(message) ? message : typeof message === 'string' ? message.split('\n') : [];
      lines = raw.filter((line): line is string => typeof line === 'string' && line.trim() !== '');
    }
  } catch {
    // Not JSON: fall back to the status text below; the raw body is no message for a user.
  }
  if (lines.length === 0) lines = [response.statusText || `HTTP ${response.status}`];
  return new ApiError(response.status, errorCode, lines, endpoint.id, wordsForError(response.status, lines));
}
