import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { pathParamNames, type Endpoint } from '#shared/contract/endpoint.ts';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { mapPool, rawRequest, type RawResponse } from './support/raw-request.ts';
import { signIn } from './support/sign-in.ts';
import { stack } from './support/stack.ts';

/**
 * The registry walk: every declared endpoint, sent malformed params, query and body with a VALID token, must answer
 * a 4xx whose message is `path: message` lines (DESIGN.md §9) — never a 5xx, never a routing 404/405.
 */

/** Candidates for a value that passes a path parameter's rule (the first that parses is used). */
const VALID_CANDIDATES = [
  'demo-ref-1',
  '01HZX3K5J8Q9W2E4R6T7Y8V9AB',
  'abcdefghijklmnopqrstuvwxyz012345',
  '447700900123',
  '123456789012345',
  'abc',
  'x',
];

/** Candidates for a value that breaks a path parameter's rule (the first that fails to parse is used). */
const HOSTILE_CANDIDATES = [
  ' leading space',
  'a,b+c#d:e',
  'x'.repeat(400),
  '\u0000',
  '../../etc/passwd',
  '!',
  'Z',
];

const LINE = /^[^\s:]+: \S.*$/;
const CONCURRENCY = 3;

type AnyEndpoint = Endpoint;

function fieldSchema(endpoint: AnyEndpoint, name: string): z.ZodType | undefined {
  return (endpoint.params.shape as Record<string, z.ZodType>)[name];
}

function sampleFor(schema: z.ZodType | undefined, candidates: string[], wantValid: boolean): string | undefined {
  if (!schema) return wantValid ? candidates[0] : undefined;
  const options = (schema as unknown as { options?: unknown[] }).options;
  if (wantValid && Array.isArray(options) && typeof options[0] === 'string') return options[0];
  return candidates.find((candidate) => schema.safeParse(candidate).success === wantValid);
}

function validParams(endpoint: AnyEndpoint): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of pathParamNames(endpoint.fullPath)) {
    values[name] = name === 'client' ? (endpoint.surface === 'internal' ? 'admin' : 'demo') : (sampleFor(fieldSchema(endpoint, name), VALID_CANDIDATES, true) ?? 'x');
  }
  return values;
}

function buildPath(endpoint: AnyEndpoint, values: Record<string, string>, query = ''): string {
  const path = endpoint.fullPath.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));
  return query ? `${path}?${query}` : path;
}

let tokens: Promise<{ tenant: string; staff: string }> | undefined;
function tokensOnce() {
  tokens ??= Promise.all([signIn('admin@demo.test'), signIn('staff@verity.test')]).then(([tenant, staff]) => ({
    tenant: tenant.id_token,
    staff: staff.id_token,
  }));
  return tokens;
}

interface Case {
  endpoint: AnyEndpoint;
  name: string;
  path: string;
  body?: string;
  contentType?: string;
}

/** Sends the cases; answers one line per case that broke the rule (empty when all is well). */
async function walk(cases: Case[]): Promise<string[]> {
  const { tenant, staff } = await tokensOnce();
  const failures = await mapPool(cases, CONCURRENCY, async (c) => {
    let response: RawResponse;
    try {
      response = await rawRequest(stack().apiUrl, {
        method: c.endpoint.method,
        path: c.path,
        headers: {
          authorization: `Bearer ${c.endpoint.surface === 'internal' ? staff : tenant}`,
          ...(c.body === undefined ? {} : { 'content-type': c.contentType ?? 'application/json' }),
        },
        ...(c.body === undefined ? {} : { body: c.body }),
      });
    } catch (error) {
      return `${c.endpoint.id} [${c.name}]: request failed: ${String(error)}`;
    }
    const where = `${c.endpoint.id} [${c.name}] ${c.endpoint.method} ${c.path.slice(0, 120)}`;
    if (response.status < 400 || response.status >= 500) return `${where}: status ${response.status} ${response.text.slice(0, 200)}`;
    if (response.status === 404 || response.status === 405) return `${where}: routing answered ${response.status}`;
    let body: { message?: unknown; error_code?: unknown };
    try {
      body = JSON.parse(response.text) as typeof body;
    } catch {
      return `${where}: body is not JSON: ${response.text.slice(0, 200)}`;
    }
    if (body.error_code !== response.status) return `${where}: error_code ${String(body.error_code)} for status ${response.status}`;
    const lines = typeof body.message === 'string' ? body.message.split('\n') : [];
    const bad = lines.filter((line) => !LINE.test(line));
    if (lines.length === 0 || bad.length > 0) return `${where}: message is not 'path: message' lines: ${JSON.stringify(body.message).slice(0, 200)}`;
    return undefined;
  });
  return failures.filter((failure): failure is string => failure !== undefined);
}

const endpoints = ENDPOINTS as readonly AnyEndpoint[];

describe('registry walk: malformed input never reaches a 5xx', () => {
  it('covers the whole registry', () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(110);
  });

  it('routes every declared endpoint to its handler: never a routing 404/405, 501 only naming the endpoint', async () => {
    const { tenant, staff } = await tokensOnce();
    const failures = await mapPool(endpoints, CONCURRENCY, async (endpoint) => {
      const path = buildPath(endpoint, validParams(endpoint));
      const response = await rawRequest(stack().apiUrl, {
        method: endpoint.method,
        path,
        headers: { authorization: `Bearer ${endpoint.surface === 'internal' ? staff : tenant}` },
      });
      const where = `${endpoint.id} ${endpoint.method} ${path}`;
      if (response.status === 405 || response.text.includes('No endpoint is declared')) return `${where}: not routed (${response.status})`;
      if (response.status === 501 && !response.text.includes(endpoint.id)) return `${where}: 501 without the endpoint id: ${response.text.slice(0, 200)}`;
      if (response.status >= 500 && response.status !== 501) return `${where}: ${response.status} ${response.text.slice(0, 200)}`;
      return undefined;
    });
    expect(failures.filter(Boolean)).toEqual([]);
  });

  it('refuses a path parameter that breaks its rule', async () => {
    const cases: Case[] = [];
    for (const endpoint of endpoints) {
      const names = pathParamNames(endpoint.fullPath).filter((name) => name !== 'client');
      for (const name of names) {
        const hostile = sampleFor(fieldSchema(endpoint, name), HOSTILE_CANDIDATES, false);
        if (hostile === undefined) continue;
        cases.push({ endpoint, name: `param ${name}`, path: buildPath(endpoint, { ...validParams(endpoint), [name]: hostile }) });
      }
    }
    expect(cases.length).toBeGreaterThan(0);
    expect(await walk(cases)).toEqual([]);
  });

  it('refuses a bad client in the path', async () => {
    const cases = endpoints
      .filter((endpoint) => endpoint.fullPath.includes('{client}'))
      .flatMap((endpoint) =>
        ['Bad Client!', 'x'.repeat(100), '%', 'demo#acme'].map((client) => ({
          endpoint,
          name: `client ${client.slice(0, 12)}`,
          // '%' on its own is not valid percent-encoding: sent raw, the gateway itself must answer 400.
          path:
            client === '%'
              ? buildPath(endpoint, validParams(endpoint)).replace(`/${validParams(endpoint).client}`, '/%')
              : buildPath(endpoint, { ...validParams(endpoint), client }),
        })),
      );
    expect(await walk(cases)).toEqual([]);
  });

  it('refuses unknown and wrongly typed query parameters', async () => {
    const cases: Case[] = [];
    for (const endpoint of endpoints) {
      const params = validParams(endpoint);
      if (!endpoint.query.safeParse({ zz_unknown: '1' }).success) {
        cases.push({ endpoint, name: 'unknown query key', path: buildPath(endpoint, params, 'zz_unknown=1') });
      }
      for (const key of Object.keys(endpoint.query.shape)) {
        const value = '{"$ne":null}';
        if (!endpoint.query.safeParse({ [key]: value }).success) {
          cases.push({ endpoint, name: `query ${key}`, path: buildPath(endpoint, params, `${encodeURIComponent(key)}=${encodeURIComponent(value)}`) });
        }
      }
      cases.push({ endpoint, name: 'query bad encoding', path: buildPath(endpoint, params, 'limit=%zz&zz_unknown=%') });
    }
    expect(cases.length).toBeGreaterThan(endpoints.length);
    // The last case is accepted only when the query takes unknown keys (a loose query object is a bug to report).
    expect(await walk(cases)).toEqual([]);
  });

  it('refuses invalid JSON, wrong types, and a body where none is accepted', async () => {
    const cases: Case[] = [];
    for (const endpoint of endpoints) {
      const path = buildPath(endpoint, validParams(endpoint));
      if (endpoint.body === undefined) {
        cases.push({ endpoint, name: 'unexpected body', path, body: '{"unexpected":true}' });
        continue;
      }
      cases.push({ endpoint, name: 'invalid JSON', path, body: '{"a": ' });
      cases.push({ endpoint, name: 'prototype pollution', path, body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}' });
      if (!endpoint.body.safeParse([1, 2]).success) cases.push({ endpoint, name: 'array body', path, body: '[1,2]' });
      if (!endpoint.body.safeParse(null).success) cases.push({ endpoint, name: 'null body', path, body: 'null' });
      const shape = (endpoint.body as unknown as { shape?: Record<string, unknown> }).shape;
      if (shape) {
        const wrong = Object.fromEntries(Object.keys(shape).map((key) => [key, { nested: [true] }]));
        if (!endpoint.body.safeParse(wrong).success) cases.push({ endpoint, name: 'wrong types', path, body: JSON.stringify(wrong) });
      }
      cases.push({ endpoint, name: 'form body', path, body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' });
    }
    expect(cases.length).toBeGreaterThan(endpoints.length);
    // 'prototype pollution' and 'form body' may be refused for any reason, but must be refused with a 4xx.
    expect(await walk(cases)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
