import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint.ts';
import { buildUrl, callEndpoint, flattenQuery, type EndpointResponse, type SurfaceBases } from './api-client.ts';
import { ApiError, ResponseShapeError } from './api-error.ts';

// Endpoints declared here, not taken from the registry, so these tests pin the client's behaviour alone.
const getDevice = defineEndpoint({
  id: 'admin.devices.get',
  surface: 'admin',
  method: 'GET',
  path: '/devices/{device_reference}',
  auth: 'user',
  action: 'devices:Get',
  group: 'devices',
  summary: 'One device',
  params: z.object({ device_reference: z.string() }),
  response: z.object({ device_reference: z.string(), active: z.boolean() }),
});

const listAlerts = defineEndpoint({
  id: 'admin.alerts.list',
  surface: 'admin',
  method: 'GET',
  path: '/alerts',
  auth: 'user',
  action: 'alerts:List',
  group: 'alerts',
  summary: 'Alerts',
  query: z.object({
    alert_scope: z.array(z.string()).optional(),
    active: z.boolean().optional(),
    last_key: z.string().optional(),
    limit: z.number().optional(),
  }),
  response: z.object({ count: z.number(), data: z.array(z.object({ alert_reference: z.string() })) }),
});

const postComment = defineEndpoint({
  id: 'client.comments.create',
  surface: 'client',
  method: 'POST',
  path: '/payloads/{payload_reference}/comments',
  auth: 'client-app',
  action: 'comments:Create',
  group: 'payloads',
  summary: 'Comment',
  params: z.object({ payload_reference: z.string() }),
  body: z.object({ message: z.string() }),
  response: z.object({ comment_reference: z.string() }),
});

const internalList = defineEndpoint({
  id: 'internal.support.list',
  surface: 'internal',
  method: 'DELETE',
  path: '/support',
  auth: 'user',
  action: 'support:Delete',
  group: 'support-access',
  summary: 'Internal',
  response: z.undefined(),
});

const BASES: SurfaceBases = {
  admin: '/api/v1',
  client: 'https://tenant.example.com/api/v1',
  internal: '/internal/v1',
  device: '/device/v1',
};

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records what it was asked and answers with the given status and body text. */
function fakeFetch(status: number, body: string, statusText = '') {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), init: init ?? {} });
    return new Response(status === 204 ? null : body, { status, statusText });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, sent };
}

describe('buildUrl', () => {
  it('puts the tenant after the admin base and encodes each path parameter', () => {
    expect(buildUrl(getDevice, { client: 'acme', params: { device_reference: 'a b/c?d#e' } }, BASES)).toBe(
      '/api/v1/acme/devices/a%20b%2Fc%3Fd%23e',
    );
  });

  it('uses the client surface base, which may be another origin', () => {
    expect(buildUrl(postComment, { client: 'acme', params: { payload_reference: 'P1' } }, BASES)).toBe(
      'https://tenant.example.com/api/v1/acme/payloads/P1/comments',
    );
  });

  it('adds no tenant on the internal surface', () => {
    expect(buildUrl(internalList, {}, BASES)).toBe('/internal/v1/support');
  });

  it('fills an internal path\'s {client} from the call\'s client, encoded', () => {
    const perClient = defineEndpoint({
      id: 'internal.clients.thing',
      surface: 'internal',
      method: 'POST',
      path: '/clients/{client}/supportaccess',
      auth: 'user',
      action: 'internal:Thing',
      group: 'support-access',
      summary: 'test',
      response: z.object({}),
    });
    expect(buildUrl(perClient, { client: 'de mo' }, BASES)).toBe('/internal/v1/clients/de%20mo/supportaccess');
    expect(() => buildUrl(perClient, {}, BASES)).toThrow('Path parameter "client" is missing');
  });

  it('encodes a hostile tenant rather than letting it change the path', () => {
    expect(buildUrl(getDevice, { client: '../internal', params: { device_reference: 'x' } }, BASES)).toBe(
      '/api/v1/..%2Finternal/devices/x',
    );
  });

  it.each(['.', '..', ''])('refuses the path parameter %j, which a URL parser would resolve or drop', (value) => {
    expect(() => buildUrl(getDevice, { client: 'acme', params: { device_reference: value } }, BASES)).toThrow(
      /device_reference/,
    );
    expect(() => buildUrl(getDevice, { client: value, params: { device_reference: 'x' } }, BASES)).toThrow(/client/);
  });

  it('refuses a missing path parameter or tenant instead of sending "undefined"', () => {
    expect(() => buildUrl(getDevice, { client: 'acme', params: {} }, BASES)).toThrow(
      'Path parameter "device_reference" is missing',
    );
    expect(() => buildUrl(getDevice, { params: { device_reference: 'x' } }, BASES)).toThrow(
      'Path parameter "client" is missing',
    );
  });

  it('does not take a path parameter from the prototype chain', () => {
    const params = Object.create({ device_reference: 'inherited' }) as object;
    expect(() => buildUrl(getDevice, { client: 'acme', params }, BASES)).toThrow(/missing/);
  });
});

describe('flattenQuery', () => {
  it('flattens to key=value pairs, repeating the key for arrays and skipping empty values', () => {
    expect(
      flattenQuery({
        alert_scope: ['ops', 'sec'],
        active: true,
        limit: 0,
        last_key: undefined,
        skipped: null,
        at: new Date('2024-01-02T03:04:05.000Z'),
      }),
    ).toEqual([
      ['alert_scope', 'ops'],
      ['alert_scope', 'sec'],
      ['active', 'true'],
      ['limit', '0'],
      ['at', '2024-01-02T03:04:05.000Z'],
    ]);
  });

  it('refuses nested objects and non-finite numbers rather than sending "[object Object]" or "NaN"', () => {
    expect(() => flattenQuery({ filter: { a: 1 } })).toThrow('Query parameter "filter"');
    expect(() => flattenQuery({ filter: [{ a: 1 }] })).toThrow('Query parameter "filter"');
    expect(() => flattenQuery({ limit: Number.NaN })).toThrow('finite number');
    expect(() => flattenQuery({ at: new Date('nonsense') })).toThrow('Query parameter "at"');
  });

  it('URL-encodes keys and values that carry separators', () => {
    const url = buildUrl(listAlerts, { client: 'acme', query: { last_key: 'a&b=c#d' } }, BASES);
    expect(url).toBe('/api/v1/acme/alerts?last_key=a%26b%3Dc%23d');
    expect(new URL(url, 'http://x').searchParams.get('last_key')).toBe('a&b=c#d');
  });
});

describe('callEndpoint', () => {
  it('sends the method, bearer token and JSON body, and returns the checked response', async () => {
    const { fetch, sent } = fakeFetch(201, '{"comment_reference":"C1"}');
    const result = await callEndpoint(
      postComment,
      { client: 'acme', params: { payload_reference: 'P1' }, body: { message: 'hello' } },
      { token: 'tok', fetch, bases: BASES },
    );
    expect(result).toEqual({ comment_reference: 'C1' });
    const [call] = sent;
    expect(call?.url).toBe('https://tenant.example.com/api/v1/acme/payloads/P1/comments');
    expect(call?.init.method).toBe('POST');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(call?.init.body).toBe('{"message":"hello"}');
  });

  it('sends the support-mode authorization and no body on a GET', async () => {
    const { fetch, sent } = fakeFetch(200, '{"device_reference":"D1","active":true}');
    await callEndpoint(
      getDevice,
      { client: 'acme', params: { device_reference: 'D1' } },
      { token: 'tok', supportReference: 'R1', fetch, bases: BASES },
    );
    const headers = new Headers(sent[0]?.init.headers);
    expect(headers.get('Authorization')).toBe('internal-R1 tok');
    expect(headers.has('Content-Type')).toBe(false);
    expect(sent[0]?.init.body).toBeUndefined();
  });

  it('sends no Authorization header without a token', async () => {
    const { fetch, sent } = fakeFetch(204, '');
    await expect(callEndpoint(internalList, {}, { fetch, bases: BASES })).resolves.toBeUndefined();
    expect(new Headers(sent[0]?.init.headers).has('Authorization')).toBe(false);
  });

  it('reports a response that does not match its schema: prefix, path lines, JSON excerpt', async () => {
    const body = JSON.stringify({ device_reference: 7, active: 'yes', padding: 'x'.repeat(500) });
    const { fetch } = fakeFetch(200, body);
    const call = callEndpoint(getDevice, { client: 'acme', params: { device_reference: 'D1' } }, { fetch, bases: BASES });
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseShapeError);
    const lines = (error as Error).message.split('\n');
    expect(lines[0]).toBe('GET /api/v1/{client}/devices/{device_reference} (admin.devices.get)');
    expect(lines.slice(1, -1)).toEqual([
      'device_reference: Please provide a valid string for the field.',
      'active: Please provide a valid boolean for the field.',
    ]);
    expect(lines.at(-1)).toBe(`JSON: ${body.slice(0, 200)}`);
  });

  it('reports a 2xx body that is not JSON as unexpected data', async () => {
    const { fetch } = fakeFetch(200, '<!doctype html><html>proxy page</html>');
    const error = await callEndpoint(internalList, {}, { fetch, bases: BASES }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toBe(
      'DELETE /internal/v1/support (internal.support.list)\nUnexpected data received.\n<!doctype html><html>proxy page</html>',
    );
  });

  it('maps a 4xx body to an ApiError with status, error_code and message lines', async () => {
    const { fetch } = fakeFetch(
      400,
      JSON.stringify({ error_code: 400, message: 'body.message: The message field is required.\nbody.x: This field is not allowed.' }),
    );
    const error = await callEndpoint(
      postComment,
      { client: 'acme', params: { payload_reference: 'P1' }, body: { message: '' } },
      { fetch, bases: BASES },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      errorCode: 400,
      endpointId: 'client.comments.create',
      lines: ['body.message: The message field is required.', 'body.x: This field is not allowed.'],
    });
  });

  it('accepts message lines sent as an array', async () => {
    const { fetch } = fakeFetch(403, JSON.stringify({ error_code: 'Forbidden', message: ['devices:Get is not allowed'] }));
    const error = await callEndpoint(getDevice, { client: 'a', params: { device_reference: 'd' } }, { fetch, bases: BASES }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ status: 403, errorCode: 'Forbidden', lines: ['devices:Get is not allowed'] });
  });

  it.each([
    ['an HTML page', '<html>Bad gateway</html>', 'Bad Gateway'],
    ['an empty body', '', 'Bad Gateway'],
    ['JSON of the wrong kind', '[1,2]', 'Bad Gateway'],
    ['a message of the wrong type', '{"error_code":{"x":1},"message":42}', 'Bad Gateway'],
  ])('maps a 5xx with %s to an ApiError carrying the status text only', async (_label, body, statusText) => {
    const { fetch } = fakeFetch(502, body, statusText);
    const error = await callEndpoint(internalList, {}, { fetch, bases: BASES }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, errorCode: 502, lines: ['Bad Gateway'], message: 'Bad Gateway' });
  });

  it('falls back to "HTTP <status>" when there is no status text either', async () => {
    const { fetch } = fakeFetch(500, '');
    const error = await callEndpoint(internalList, {}, { fetch, bases: BASES }).catch((caught: unknown) => caught);
    expect((error as ApiError).lines).toEqual(['HTTP 500']);
  });

  it('does not call fetch when the input cannot be put on the wire', async () => {
    const { fetch } = fakeFetch(200, '{}');
    await expect(
      callEndpoint(listAlerts, { client: 'acme', query: { last_key: { $ne: 1 } as unknown as string } }, { fetch, bases: BASES }),
    ).rejects.toThrow(TypeError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('uses the bases from the runtime configuration by default', async () => {
    const { fetch, sent } = fakeFetch(200, '{"count":0,"data":[]}');
    await callEndpoint(listAlerts, { client: 'acme', query: { alert_scope: ['ops'] } }, { fetch });
    expect(sent[0]?.url).toBe('/api/v1/acme/alerts?alert_scope=ops');
  });
});

describe('CallInput types', () => {
  it('requires what the schemas require and refuses what they do not take', () => {
    // Compile-time checks: `tsc` fails if these expectations change.
    const noCall = () => undefined as unknown;
    if (noCall()) {
      // @ts-expect-error a body endpoint needs its body
      void callEndpoint(postComment, { client: 'a', params: { payload_reference: 'p' } });
      // @ts-expect-error the body's fields are typed
      void callEndpoint(postComment, { client: 'a', params: { payload_reference: 'p' }, body: { message: 1 } });
      // @ts-expect-error an endpoint without a body takes none
      void callEndpoint(getDevice, { client: 'a', params: { device_reference: 'd' }, body: { x: 1 } });
      // @ts-expect-error path parameters are required when the schema has any
      void callEndpoint(getDevice, { client: 'a' });
      void callEndpoint(listAlerts, { client: 'a' });
    }
    expectTypeOf<EndpointResponse<typeof getDevice>>().toEqualTypeOf<{ device_reference: string; active: boolean }>();
  });
});
