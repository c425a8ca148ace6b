import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { ClientId } from '#shared/contract/fields.ts';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors.ts';
import { capLine, issueLines } from './issues.ts';
import { parseJsonSafely } from './safe-json.ts';

/** The largest request body accepted (API Gateway's own limit is 10 MB; no contract body comes near 1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Input that passed the endpoint's contract. */
export interface ParsedInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** The path's `{client}`, when the path has one. */
  client: string | undefined;
}

/** Decoded body bytes as text, or throws 413 when over the limit. Measures bytes, not characters. */
function bodyText(event: APIGatewayProxyEventV2): string | undefined {
  const raw = event.body;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (event.isBase64Encoded) {
    // Cheap upper bound first so a hostile 10 MB base64 string is refused without decoding it.
    if (Math.floor((raw.length * 3) / 4) - 2 > MAX_BODY_BYTES) throw tooLarge();
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
    return bytes.toString('utf8');
  }
  if (raw.length > MAX_BODY_BYTES || Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) throw tooLarge();
  return raw;
}

function tooLarge(): PayloadTooLargeError {
  return new PayloadTooLargeError(`body: Must be at most ${MAX_BODY_BYTES} bytes`);
}

/** `application/json`, optionally with `charset=utf-8` (JSON is UTF-8; RFC 8259), in any letter case and spacing. */
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** The Content-Type header, whatever the letter case of its name (API Gateway lower-cases it; tests may not). */
function contentTypeOf(event: APIGatewayProxyEventV2): string | undefined {
  const headers = event.headers ?? {};
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'content-type');
  return name === undefined ? undefined : headers[name];
}

/**
 * A request that carries a body must declare it as JSON: anything else (a form, plain text, no type at all) is a
 * 415 before the body is read. A request without a body may send any Content-Type or none: there is nothing to
 * misread, and browsers and proxies add one to bodiless requests on their own.
 */
function checkContentType(event: APIGatewayProxyEventV2): void {
  const type = contentTypeOf(event)?.trim();
  if (type !== undefined && JSON_MEDIA_TYPE.test(type)) return;
  const shown = type === undefined || type === '' ? 'none' : type.slice(0, 100);
  throw new UnsupportedMediaTypeError(`headers.content-type: Must be application/json for a request with a body (got ${shown})`);
}

/**
 * Parses path parameters, query and body against the endpoint's contract. Collects every problem and throws one
 * ValidationError with a `params.`, `query.` or `body.` line each (before anything else: 413 for an oversized body,
 * then 415 for a body that is not declared as JSON).
 */
export function parseRequest(endpoint: Endpoint, event: APIGatewayProxyEventV2): ParsedInput {
  const text = bodyText(event);
  // A body of only whitespace counts as none here, as it does for endpoints that take no body.
  if (text !== undefined && text.trim() !== '') checkContentType(event);
  const lines: string[] = [];

  const { client: rawClient, ...rawParams } = event.pathParameters ?? {};
  let client: string | undefined;
  if (endpoint.fullPath.includes('{client}')) {
    // The path's `{client}` is checked here for every endpoint whose path has one (contracts leave it out).
    const parsed = ClientId.safeParse(rawClient);
    if (parsed.success) client = parsed.data;
    else lines.push(...issueLines('params', parsed.error, 'client'));
  }

  const params = endpoint.params.safeParse(rawParams);
  if (!params.success) lines.push(...issueLines('params', params.error));

  const query = endpoint.query.safeParse(event.queryStringParameters ?? {});
  if (!query.success) lines.push(...issueLines('query', query.error));

  let body: unknown;
  if (endpoint.body === undefined) {
    if (text !== undefined && text.trim() !== '') lines.push('body: This endpoint takes no body');
  } else {
    let value: unknown;
    let readable = true;
    if (text !== undefined) {
      const json = parseJsonSafely(text);
      if (json.ok) value = json.value;
      else {
        readable = false;
        lines.push(`body: ${json.problem}`);
      }
    }
    if (readable) {
      const parsed = endpoint.body.safeParse(value);
      if (parsed.success) body = parsed.data;
      else lines.push(...issueLines('body', parsed.error));
    }
  }

  if (params.success && body !== undefined) lines.push(...pathContradictions(params.data as Record<string, unknown>, body));

  if (lines.length > 0) throw new ValidationError(lines);
  return {
    params: params.success ? (params.data as Record<string, unknown>) : {},
    query: query.success ? (query.data as Record<string, unknown>) : {},
    body,
    client,
  };
}

/**
 * A body may repeat its path's parameters, as the spec's request bodies do (a legal hold request names its `target`
 * and `target_type`; a transfer config its reference): equal values are accepted, a different one is refused, so a
 * body never acts on another record than the one its path names.
 */
function pathContradictions(params: Record<string, unknown>, body: unknown): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const fields = body as Record<string, unknown>;
  return Object.entries(params)
    .filter(([name, value]) => fields[name] !== undefined && fields[name] !== value)
    .map(([name, value]) => capLine(`body.${name}: Must equal the path's ${name} (${String(value)}) or be left out`));
}
