import { describe, expect, it } from 'vitest';
import {
  buildEvent,
  collectHeaders,
  createRouter,
  parseQueryString,
  splitUrl,
  toGatewayResponse,
  type RouteTarget,
} from './api-gateway.ts';

const endpoints: RouteTarget[] = [
  { id: 'admin.devices.get', method: 'GET', fullPath: '/api/v1/{client}/devices/{device_reference}', group: 'devices' },
  { id: 'admin.devices.users', method: 'GET', fullPath: '/api/v1/{client}/devices/users', group: 'devices' },
  { id: 'admin.devices.delete', method: 'DELETE', fullPath: '/api/v1/{client}/devices/{device_reference}', group: 'devices' },
  { id: 'internal.carriers.list', method: 'GET', fullPath: '/internal/v1/carriers', group: 'devices' },
  { id: 'admin.profile.get', method: 'GET', fullPath: '/api/v1/{client}/profile', group: 'identity' },
];
const match = createRouter(endpoints);

describe('createRouter', () => {
  it('binds and decodes path parameters', () => {
    const result = match('GET', '/api/v1/demo/devices/abc%20def');
    expect(result).toEqual({
      kind: 'matched',
      endpoint: endpoints[0],
      pathParameters: { client: 'demo', device_reference: 'abc def' },
    });
  });

  it('prefers a literal segment over a parameter whatever the declaration order', () => {
    const result = match('GET', '/api/v1/demo/devices/users');
    expect(result.kind === 'matched' && result.endpoint.id).toBe('admin.devices.users');
    const reversed = createRouter([...endpoints].reverse())('GET', '/api/v1/demo/devices/users');
    expect(reversed.kind === 'matched' && reversed.endpoint.id).toBe('admin.devices.users');
  });

  it('answers method-not-allowed with the allowed methods for a declared path', () => {
    expect(match('PUT', '/api/v1/demo/devices/x')).toEqual({ kind: 'method-not-allowed', allowed: ['DELETE', 'GET'] });
  });

  it('does not bind empty segments, extra segments or unknown prefixes', () => {
    expect(match('GET', '/api/v1//profile').kind).toBe('not-found');
    expect(match('GET', '/api/v1/demo/profile/extra').kind).toBe('not-found');
    expect(match('GET', '/api/v2/demo/profile').kind).toBe('not-found');
    expect(match('GET', '/internal/v1/carriers/').kind).toBe('not-found');
  });

  it('reports malformed percent-encoding in a parameter instead of throwing', () => {
    expect(match('GET', '/api/v1/%E0%A4%A/profile')).toEqual({ kind: 'bad-encoding', parameter: 'client' });
  });

  it('keeps an encoded slash inside one parameter rather than splitting the path', () => {
    const result = match('GET', '/api/v1/demo/devices/a%2Fb');
    expect(result.kind === 'matched' && result.pathParameters.device_reference).toBe('a/b');
  });

  it('refuses a registry with two endpoints on the same method and template', () => {
    expect(() =>
      createRouter([
        { id: 'a', method: 'GET', fullPath: '/x/{a}', group: 'g' },
        { id: 'b', method: 'GET', fullPath: '/x/{b}', group: 'g' },
      ]),
    ).toThrow(/GET \/x\/\{\}/);
  });
});

describe('query and headers', () => {
  it('splits the url without decoding', () => {
    expect(splitUrl('/a%20b?x=1%202#frag')).toEqual({ rawPath: '/a%20b', rawQueryString: 'x=1%202' });
    expect(splitUrl('/a')).toEqual({ rawPath: '/a', rawQueryString: '' });
  });

  it('decodes query parameters, joins repeats with commas and survives bad encoding', () => {
    expect(parseQueryString('')).toBeUndefined();
    expect(parseQueryString('a=1&a=2&b=x+y&c&d=%zz')).toEqual({ a: '1,2', b: 'x y', c: '', d: '%zz' });
    expect(parseQueryString('&&')).toBeUndefined();
  });

  it('lower-cases headers, joins repeats and separates cookies', () => {
    const { headers, cookies } = collectHeaders(['Authorization', 'Bearer t', 'X-A', '1', 'x-a', '2', 'Cookie', 'a=1; b=2']);
    expect(headers).toEqual({ authorization: 'Bearer t', 'x-a': '1,2' });
    expect(cookies).toEqual(['a=1', 'b=2']);
  });
});

describe('buildEvent', () => {
  it('builds an APIGatewayProxyEventV2 with the route key and request context', () => {
    const endpoint = endpoints[0] as RouteTarget;
    const event = buildEvent(
      {
        method: 'GET',
        url: '/api/v1/demo/devices/d1?limit=5',
        rawHeaders: ['Host', 'localhost:3000', 'User-Agent', 'test'],
        body: undefined,
        sourceIp: '127.0.0.1',
      },
      endpoint,
      { client: 'demo', device_reference: 'd1' },
      new Date('2025-01-01T00:00:00Z'),
    );
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /api/v1/{client}/devices/{device_reference}',
      rawPath: '/api/v1/demo/devices/d1',
      rawQueryString: 'limit=5',
      pathParameters: { client: 'demo', device_reference: 'd1' },
      queryStringParameters: { limit: '5' },
      headers: { host: 'localhost:3000', 'user-agent': 'test' },
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'GET', path: '/api/v1/demo/devices/d1', sourceIp: '127.0.0.1', userAgent: 'test' },
        routeKey: 'GET /api/v1/{client}/devices/{device_reference}',
        timeEpoch: Date.parse('2025-01-01T00:00:00Z'),
      },
    });
    expect(event.body).toBeUndefined();
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes a body through untouched, even when it is not JSON', () => {
    const event = buildEvent(
      { method: 'POST', url: '/x', rawHeaders: [], body: '{not json', sourceIp: '::1' },
      { id: 'x', method: 'POST', fullPath: '/x', group: 'g' },
      {},
    );
    expect(event.body).toBe('{not json');
    expect(event.pathParameters).toBeUndefined();
  });
});

describe('toGatewayResponse', () => {
  it('uses a structured result and lower-cases its headers', () => {
    const response = toGatewayResponse({ statusCode: 501, headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(response.statusCode).toBe(501);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(response.body.toString()).toBe('{"a":1}');
  });

  it('decodes base64 bodies', () => {
    const response = toGatewayResponse({ statusCode: 200, body: Buffer.from('hi').toString('base64'), isBase64Encoded: true });
    expect(response.body.toString()).toBe('hi');
  });

  it('treats a bare object as a 200 JSON body', () => {
    const response = toGatewayResponse({ ok: true } as never);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({ ok: true });
  });
});
