import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../scripts/local/seed/accounts.ts';
import { Browser, authorize, portalRedirectUri, signIn } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

/**
 * Identity group against the local stack: the portal's own sign-in path (GET url -> the provider's page -> code ->
 * GET exchange), profile, refresh, account metadata, internal verify, exchange and staff.
 */

/** The stack's port: the portal it serves is on the same origin, so `local_port` brings the browser back to it. */
const stackPort = () => Number(new URL(stack().apiUrl).port);

async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Follows a sign-in URL as a browser would, fills the provider's form, and answers the code it returns with. */
async function codeFrom(signInUrl: string, email: string, redirectUri: string): Promise<string> {
  const browser = new Browser();
  const page = await browser.follow(signInUrl, {}, redirectUri);
  expect(page.response.status).toBe(200);
  const html = await page.response.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  expect(action, 'the provider shows its sign-in form').toBeDefined();
  const submitted = await browser.follow(
    new URL(action!.replace(/&#38;/g, '&'), page.url).href,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password: DEMO_PASSWORD }).toString(),
    },
    redirectUri,
  );
  expect(submitted.url.startsWith(redirectUri), `back on the portal, not ${submitted.url}`).toBe(true);
  const code = new URL(submitted.url).searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

/** GET exchange for a code; the contract takes Cognito-shaped 36-character codes, so the provider must issue those. */
function exchange(path: string, query: Record<string, string>): Promise<Response> {
  return api(`${path}?${new URLSearchParams(query)}`);
}

describe('sign-in through GET url and GET exchange (real code flow)', () => {
  it('signs a tenant user in end to end, and the id token opens GET profile with the computed actions', async () => {
    const urlResponse = await api(`/api/v1/demo/url?local_port=${stackPort()}`);
    expect(urlResponse.status).toBe(200);
    const { url, client_id } = await json<{ url: string; client_id: string }>(urlResponse);
    expect(client_id).toBe('verity-demo-portal');
    const authorizeUrl = new URL(url);
    expect(authorizeUrl.href.startsWith(stack().oidcIssuer)).toBe(true);
    expect(authorizeUrl.searchParams.get('response_type')).toBe('code');
    const redirectUri = authorizeUrl.searchParams.get('redirect_uri')!;
    expect(redirectUri).toBe(`http://localhost:${stackPort()}/sign-in`);

    const code = await codeFrom(url, 'admin@demo.test', redirectUri);
    // The contract (spec) wants 36-character codes, as Cognito issues; the local provider must issue the same.
    expect(code, 'local provider code length (scripts/local/oidc.ts formats.bitsOfOpaqueRandomness)').toHaveLength(36);
    const exchanged = await exchange('/api/v1/demo/exchange', { code, redirect_uri: redirectUri });
    expect(exchanged.status).toBe(200);
    const tokens = await json<{ id_token: string; refresh_token?: string; expires_in: number }>(exchanged);
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.refresh_token).toBeTruthy();

    // Needs the authz engineer's AccessContext on input.access.
    const profile = await api('/api/v1/demo/profile', { headers: bearer(tokens.id_token) });
    expect(profile.status).toBe(200);
    const body = await json<{ user_reference: string; client: string; roles: string[]; actions: string[] }>(profile);
    expect(body).toMatchObject({ user_reference: 'demo-admin', client: 'demo', roles: ['admin'] });
    expect(body.actions).toContain('roles:Update');
  });

  it('refuses a code used twice, a code of another tenant, and a junk code, with 400 and a clear message', async () => {
    const redirectUri = portalRedirectUri();
    const { code } = await authorize('reviewer@demo.test', { redirectUri });
    expect(code).toHaveLength(36);
    expect((await exchange('/api/v1/demo/exchange', { code, redirect_uri: redirectUri })).status).toBe(200);
    for (const [path, attempt] of [
      ['/api/v1/demo/exchange', code],
      ['/api/v1/acme/exchange', (await authorize('reviewer@demo.test', { redirectUri })).code],
      ['/api/v1/demo/exchange', `${'\'"<>&%00'.repeat(4)}${'z'.repeat(8)}`],
    ] as const) {
      const response = await exchange(path, { code: attempt.padEnd(36, 'x').slice(0, 36), redirect_uri: redirectUri });
      expect(response.status, `${path} ${attempt}`).toBe(400);
      expect((await json(response)).message).toBe('query.code: Sign-in code is invalid or expired');
    }
  });

  it('refreshes through GET exchange, and refuses a junk refresh token with 401', async () => {
    const tokens = await signIn('reviewer@demo.test', { fresh: true });
    const refreshed = await exchange('/api/v1/demo/exchange', { refresh_token: tokens.refresh_token! });
    expect(refreshed.status).toBe(200);
    const next = await json<{ id_token: string; refresh_token: string }>(refreshed);
    expect(await json(await api('/internal/v1/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id_token: next.id_token }) }))).toMatchObject({
      valid: true,
      user_reference: 'demo-reviewer',
    });
    // The local provider rotates refresh tokens (Cognito does not; then the presented one is echoed).
    expect(next.refresh_token).toBeTruthy();

    const junk = await exchange('/api/v1/demo/exchange', { refresh_token: 'not-a-refresh-token' });
    expect(junk.status).toBe(401);
    expect((await json(junk)).message).toBe('Refresh token is invalid or expired');
    // Another tenant's app client refuses this tenant's refresh token.
    const foreign = await exchange('/api/v1/acme/exchange', { refresh_token: next.refresh_token });
    expect(foreign.status).toBe(401);
  });

  it('answers 404 Unknown client for url and exchange of a tenant that does not exist, 400 for bad input', async () => {
    for (const path of ['/api/v1/nobody/url', '/api/v1/nobody/exchange?refresh_token=x']) {
      const response = await api(path);
      expect(response.status, path).toBe(404);
      expect((await json(response)).message).toBe('Unknown client');
    }
    expect((await api('/api/v1/demo/url?local_port=0')).status).toBe(400);
    expect((await api('/api/v1/demo/exchange')).status).toBe(400);
    expect((await api(`/api/v1/demo/exchange?code=${'a'.repeat(36)}`)).status).toBe(400);
  });
});

describe('GET account/metadata (no auth)', () => {
  it('shows the public facts of a tenant and of the staff portal, and 404 for an unknown one', async () => {
    const demo = await api('/api/v1/demo/account/metadata');
    expect(demo.status).toBe(200);
    expect(await json(demo)).toEqual({ client: 'demo', display_name: 'Demo Ltd', client_id: 'verity-demo-portal', is_admin: false });
    const admin = await json(await api('/api/v1/admin/account/metadata'));
    expect(admin).toMatchObject({ client: 'admin', client_id: 'verity-admin-portal', is_admin: true });
    expect((await api('/api/v1/nobody/account/metadata')).status).toBe(404);
  });
});

describe('internal identity endpoints', () => {
  const verify = (body: unknown) =>
    api('/internal/v1/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('POST /verify says valid for a fresh token and invalid for junk, never failing', async () => {
    const tokens = await signIn('admin@acme.test');
    const fresh = await json(await verify({ id_token: tokens.id_token }));
    expect(fresh).toMatchObject({ valid: true, client: 'acme', user_reference: 'acme-admin' });
    expect(Date.parse(String(fresh.expires_at))).toBeGreaterThan(Date.now());
    for (const junk of ['junk', `${tokens.id_token}x`, tokens.id_token.split('.').slice(0, 2).join('.') + '.', 'a.b.c']) {
      const response = await verify({ id_token: junk });
      expect(response.status).toBe(200);
      expect(await json(response)).toEqual({ valid: false });
    }
    expect((await verify({})).status).toBe(400);
  });

  it('GET /exchange signs staff in through the staff client', async () => {
    const redirectUri = portalRedirectUri();
    const { code } = await authorize('staff@verity.test', { redirectUri });
    expect(code).toHaveLength(36);
    const response = await exchange('/internal/v1/exchange', { code, redirect_uri: redirectUri });
    expect(response.status).toBe(200);
    const tokens = await json<{ id_token: string }>(response);
    expect(await json(await verify({ id_token: tokens.id_token }))).toMatchObject({ valid: true, client: 'admin' });
  });

  it('GET /exchange refreshes a staff token, and refuses a tenant refresh token', async () => {
    const staff = await signIn('staff@verity.test', { fresh: true });
    expect((await exchange('/internal/v1/exchange', { refresh_token: staff.refresh_token! })).status).toBe(200);
    const tenant = await signIn('admin@acme.test', { fresh: true });
    expect((await exchange('/internal/v1/exchange', { refresh_token: tenant.refresh_token! })).status).toBe(401);
  });

  it('GET /staff lists provider staff for a staff token only', async () => {
    expect((await api('/internal/v1/staff')).status).toBe(401);
    const tenant = await signIn('admin@demo.test');
    expect((await api('/internal/v1/staff', { headers: bearer(tenant.id_token) })).status).toBe(403);
    const staff = await signIn('staff@verity.test');
    const response = await api('/internal/v1/staff', { headers: bearer(staff.id_token) });
    expect(response.status).toBe(200);
    const page = await json<{ count: number; data: Array<{ user_reference: string; email?: string }> }>(response);
    expect(page.data).toContainEqual(expect.objectContaining({ user_reference: 'verity-staff', email: 'staff@verity.test' }));
    expect(page.data.every((entry) => entry.user_reference !== 'demo-admin')).toBe(true);
    expect((await api('/internal/v1/staff?last_key=forged', { headers: bearer(staff.id_token) })).status).toBe(400);
  });
});
