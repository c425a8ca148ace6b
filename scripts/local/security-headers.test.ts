import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../lib/config/security-headers.ts';
import { createRequestListener, listenLoopback } from './http-server.ts';

/**
 * The local server answers with the security headers CloudFront adds in production, from the same definition
 * (lib/config/security-headers.ts; test/infra/security-headers.test.ts holds the CloudFront side): the portal's pages,
 * its assets, the API's answers and the gateway's own errors alike. The OIDC stand-in's pages are Cognito's in
 * production, another origin, and keep their own.
 */
const S3_ORIGIN = 'http://127.0.0.1:4569';
const expected = securityHeaders({ payloadOrigin: S3_ORIGIN, uploadOrigin: S3_ORIGIN, secure: false });

const base = mkdtempSync(join(tmpdir(), 'verity-headers-'));
let servers: Server[] = [];
let origin = '';

beforeAll(async () => {
  const webRoot = join(base, 'dist');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Verity</title>');
  writeFileSync(join(webRoot, 'assets', 'app-1234.js'), 'export {};');
  const listener = createRequestListener({
    endpoints: [{ id: 'admin.identity.url', method: 'GET', fullPath: '/api/v1/{client}/url', group: 'identity' }],
    loadHandler: async () => async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"url":"x"}' }),
    oidc: async (req, res) => {
      if (!req.url?.startsWith('/oidc/')) return false;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<form></form>');
      return true;
    },
    health: async () => ({ ok: true, body: { ok: true } }),
    openapi: async () => ({ openapi: '3.1.0' }),
    webRoot,
    securityHeaders: expected,
  });
  const started = await listenLoopback(listener, 0);
  servers = started.servers;
  origin = `http://127.0.0.1:${started.port}`;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  rmSync(base, { recursive: true, force: true });
});

function securityHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries(Object.keys(expected).map((name) => [name, response.headers.get(name) ?? '(missing)']));
}

describe('local security headers', () => {
  it.each([
    ['a portal route (index.html)', '/dashboard'],
    ['a hashed asset', '/assets/app-1234.js'],
    ['an API answer', '/api/v1/demo/url'],
    ['an undeclared API path (the gateway 404)', '/api/v1/demo/nothing-here'],
    ['a method the route does not take (405)', '/api/v1/demo/url'],
    ['the health check', '/healthz'],
  ])('are on %s', async (what, path) => {
    const response = await fetch(`${origin}${path}`, { method: what.includes('405') ? 'DELETE' : 'GET' });
    expect(securityHeadersOf(response)).toEqual(expected);
  });

  it("are production's policy, with the stand-in's bucket origin and no https upgrade on a plain-http loopback page", () => {
    expect(expected['content-security-policy']).toContain(`media-src 'self' blob: ${S3_ORIGIN}`);
    expect(expected['content-security-policy']).toContain("script-src 'self';");
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(expected['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const production = securityHeaders({ payloadOrigin: S3_ORIGIN, uploadOrigin: S3_ORIGIN, secure: true });
    expect(production['content-security-policy']).toBe(`${expected['content-security-policy']}; upgrade-insecure-requests`);
  });

  it("leave the OIDC stand-in's pages (Cognito's, another origin in production) alone", async () => {
    const response = await fetch(`${origin}/oidc/interaction/x`);
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});
