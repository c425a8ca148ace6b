import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '#shared/contract/registry.ts';
import { api, stack } from './support/stack.ts';

describe('the local stack', () => {
  it('answers /healthz 200 with all three services up', async () => {
    const response = await api('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', services: { dynamodb: 'up', s3: 'up', oidc: 'up' } });
  });

  it('serves the web shell at / and falls back to it for client-side routes', async () => {
    for (const path of ['/', '/dashboard/devices', '/sign-in?code=x']) {
      const response = await api(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toMatch(/<div id="root">/);
      expect(html).not.toContain('/src/main.tsx'); // the BUILT app, not the dev index
    }
  });

  it('never serves files outside web/dist', async () => {
    for (const path of ['/..%2fpackage.json', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fpackage.json']) {
      const response = await api(path);
      const text = await response.text();
      expect(text, path).not.toContain('"devDependencies"');
      expect(text, path).not.toContain('root:x:0');
    }
  });

  it('answers a JSON 404 for undeclared API paths instead of the web app', async () => {
    for (const path of ['/api/v1/demo/no-such-thing', '/internal/v1/nothing', '/device/v1/', '/api']) {
      const response = await api(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { error_code: number; message: string };
      expect(body.error_code).toBe(404);
      expect(body.message).toMatch(/^path: /);
    }
  });

  it('answers 405 naming the allowed methods on a declared path with another method', async () => {
    const endpoint = ENDPOINTS.find((candidate) => candidate.fullPath === '/api/v1/{client}/profile');
    expect(endpoint).toBeDefined();
    const response = await api('/api/v1/demo/profile', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain(endpoint!.method);
  });

  it('answers CORS preflights for the portal origin only', async () => {
    const allowed = await api('/api/v1/demo/profile', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    const foreign = await api('/api/v1/demo/profile', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves /openapi.json listing every endpoint of the registry', async () => {
    const response = await api('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\.1/);
    const missing = ENDPOINTS.filter((endpoint) => !document.paths[endpoint.fullPath]?.[endpoint.method.toLowerCase()]).map(
      (endpoint) => `${endpoint.method} ${endpoint.fullPath}`,
    );
    expect(missing).toEqual([]);
    const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(operations).toBeGreaterThanOrEqual(ENDPOINTS.length);
  });

  it('publishes the OIDC discovery document on the same origin, under /oidc', async () => {
    const response = await fetch(`${stack().oidcIssuer}/.well-known/openid-configuration`);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery.issuer).toBe(`${stack().apiUrl}/oidc`);
    expect(discovery.id_token_signing_alg_values_supported).toContain('RS256');
    expect(discovery.jwks_uri).toMatch(new RegExp(`^${stack().apiUrl}/oidc/`));
  });
});
