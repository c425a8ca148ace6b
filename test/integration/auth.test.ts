import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, createRemoteJWKSet, generateKeyPair, importJWK, jwtVerify, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../scripts/local/seed/accounts.ts';
import { Browser, SignInError, authorize, exchangeCode, oidcDiscovery, signIn, tokenRequest } from './support/sign-in.ts';
import { api, bearer, stack } from './support/stack.ts';

const PROFILE = '/api/v1/demo/profile';

/** The stack's own signing key (persisted under the data dir), to mint tokens that are valid but for one flaw. */
async function providerKey() {
  const { keys } = JSON.parse(readFileSync(join(stack().dataDir, 'oidc/jwks.json'), 'utf8')) as { keys: JWK[] };
  const jwk = keys[0] as JWK;
  return { key: await importJWK(jwk, 'RS256'), kid: jwk.kid as string };
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function baseClaims() {
  return {
    email: 'admin@demo.test',
    'custom:client': 'demo',
    'cognito:groups': ['admin'],
    token_use: 'id',
  };
}

async function expectUnauthorized(token: string | undefined, why: string) {
  const response = await api(PROFILE, { headers: token === undefined ? {} : bearer(token) });
  expect(response.status, why).toBe(401);
  const body = (await response.json()) as { error_code: number; message: string };
  expect(body.error_code, why).toBe(401);
}

describe('sign-in through the local OIDC provider (real code flow)', () => {
  it('shows a plain, accessible HTML form that posts username and password', async () => {
    const browser = new Browser();
    const { authorization_endpoint } = await oidcDiscovery();
    const url = `${authorization_endpoint}?${new URLSearchParams({
      client_id: 'verity-demo-portal',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${stack().apiUrl}/sign-in`,
    })}`;
    const { response } = await browser.follow(url);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<form method="post"/);
    expect(html).toMatch(/<label for="username">/);
    expect(html).toMatch(/<input id="username" name="username"/);
    expect(html).toMatch(/<label for="password">/);
    expect(html).toMatch(/<input id="password" name="password" type="password"/);
    expect(html).not.toMatch(/<script/i);
  });

  it('issues an RS256 id token with the Cognito-shaped claims, verifiable against the JWKS', async () => {
    const tokens = await signIn('admin@demo.test');
    expect(tokens.refresh_token).toBeTruthy();
    const { jwks_uri, issuer } = await oidcDiscovery();
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token, createRemoteJWKSet(new URL(jwks_uri)), {
      issuer,
      audience: 'verity-demo-portal',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ email: 'admin@demo.test', 'custom:client': 'demo', 'cognito:groups': ['admin'] });
  });

  it('gives staff the admin client and the staff group', async () => {
    const tokens = await signIn('staff@verity.test');
    expect(claimsOf(tokens.id_token)).toMatchObject({ aud: 'verity-admin-portal', 'custom:client': 'admin', 'cognito:groups': ['staff'] });
  });

  it("refuses a wrong password, an unknown email and another tenant's account with 'Invalid email or password'", async () => {
    const attempts = [
      () => authorize('admin@demo.test', { password: 'wrong' }),
      () => authorize('admin@demo.test', { password: '' }),
      () => authorize('nobody@demo.test', { clientId: 'verity-demo-portal' }),
      () => authorize('admin@acme.test', { clientId: 'verity-demo-portal' }),
      () => authorize('staff@verity.test', { clientId: 'verity-demo-portal' }),
      () => authorize('admin@demo.test', { password: `${DEMO_PASSWORD}<script>alert(1)</script>` }),
    ];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(SignInError);
      expect((error as SignInError).status).toBe(401);
      expect((error as SignInError).page).toContain('Invalid email or password');
    }
  });

  it('escapes what the user typed when it shows the form again', async () => {
    const error = (await authorize('"><script>alert(1)</script>@demo.test', { clientId: 'verity-demo-portal' }).catch(
      (caught: unknown) => caught,
    )) as SignInError;
    expect(error.page).not.toContain('<script>alert(1)</script>');
    expect(error.page).toContain('&#60;script&#62;');
  });

  it('refuses a redirect URI that is not the portal', async () => {
    const { authorization_endpoint } = await oidcDiscovery();
    const url = `${authorization_endpoint}?${new URLSearchParams({
      client_id: 'verity-demo-portal',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'https://evil.example/sign-in',
    })}`;
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('accepts the portal redirect on any localhost port (vite dev), like a native client', async () => {
    const { code, callbackUrl } = await authorize('reviewer@demo.test', { redirectUri: 'http://localhost:59999/sign-in' });
    expect(callbackUrl.origin).toBe('http://localhost:59999');
    expect(code).toBeTruthy();
  });

  it('uses a code once only', async () => {
    const { code } = await authorize('reviewer@demo.test');
    await exchangeCode(code, 'verity-demo-portal');
    const again = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${stack().apiUrl}/sign-in`,
      client_id: 'verity-demo-portal',
    });
    expect(again.status).toBe(400);
  });

  it('refreshes with a rotating refresh token', async () => {
    const tokens = await signIn('reviewer@demo.test', { fresh: true });
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'verity-demo-portal' });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { id_token: string; refresh_token: string };
    expect(claimsOf(next.id_token)).toMatchObject({ email: 'reviewer@demo.test', 'cognito:groups': ['reviewer'] });
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'verity-demo-portal' });
    expect(reused.status).toBe(400);
  });
});

describe('the API and id tokens', () => {
  it('accepts the id token from the code flow (answers anything but 401/403)', async () => {
    const { id_token } = await signIn('admin@demo.test');
    const response = await api(PROFILE, { headers: bearer(id_token) });
    expect([401, 403]).not.toContain(response.status);
    // 2xx once built, or 501 naming the endpoint while it is not; never a 5xx of another kind.
    expect(response.status === 501 || response.status < 500, String(response.status)).toBe(true);
    if (response.status === 501) {
      const body = (await response.json()) as { message: string };
      expect(body.message).toContain('admin.profile.get');
    }
  });

  it('refuses a request without a token', async () => {
    await expectUnauthorized(undefined, 'no token');
  });

  it('refuses a token from another issuer, even with the right claims', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT(baseClaims())
      .setProtectedHeader({ alg: 'RS256', kid: 'foreign' })
      .setIssuer('https://evil.example/oidc')
      .setAudience('verity-demo-portal')
      .setSubject('demo-admin')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    await expectUnauthorized(token, 'foreign issuer');
  });

  it('refuses a token claiming our issuer but signed with another key', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const { kid } = await providerKey();
    const token = await new SignJWT(baseClaims())
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(stack().oidcIssuer)
      .setAudience('verity-demo-portal')
      .setSubject('demo-admin')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    await expectUnauthorized(token, 'our issuer, foreign key');
  });

  it('refuses an expired token signed with the real key', async () => {
    const { key, kid } = await providerKey();
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT(baseClaims())
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(stack().oidcIssuer)
      .setAudience('verity-demo-portal')
      .setSubject('demo-admin')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key);
    await expectUnauthorized(token, 'expired');
  });

  it('refuses a token for an audience that is not a portal client', async () => {
    const { key, kid } = await providerKey();
    const token = await new SignJWT(baseClaims())
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(stack().oidcIssuer)
      .setAudience('someone-else')
      .setSubject('demo-admin')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key);
    await expectUnauthorized(token, 'wrong audience');
  });

  it("refuses an unsigned token (alg 'none')", async () => {
    const { id_token } = await signIn('admin@demo.test');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = id_token.split('.')[1] as string;
    await expectUnauthorized(`${header}.${payload}.`, 'alg none, empty signature');
    await expectUnauthorized(`${header}.${payload}`, 'alg none, two parts');
  });

  it('refuses a tampered token (claims changed, or signature altered)', async () => {
    const { id_token } = await signIn('admin@demo.test');
    const [header, payload, signature] = id_token.split('.') as [string, string, string];
    const claims = claimsOf(id_token);
    const forged = Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['staff'], 'custom:client': 'admin' })).toString('base64url');
    await expectUnauthorized(`${header}.${forged}.${signature}`, 'claims changed');
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    await expectUnauthorized(`${header}.${payload}.${flipped}`, 'signature altered');
    await expectUnauthorized(`${header}.${payload}.${signature.slice(0, -4)}`, 'signature truncated');
  });

  it('refuses malformed authorization headers', async () => {
    const { id_token } = await signIn('admin@demo.test');
    for (const header of [`Basic ${id_token}`, 'Bearer', 'Bearer not-a-jwt', `Bearer ${id_token} extra`, `Bearer ${'a'.repeat(8_000)}`]) {
      const response = await api(PROFILE, { headers: { authorization: header } });
      expect(response.status, header.slice(0, 30)).toBe(401);
    }
  });

  it("answers 403 for a demo token on acme's API", async () => {
    const { id_token } = await signIn('admin@demo.test');
    const response = await api('/api/v1/acme/profile', { headers: bearer(id_token) });
    expect(response.status).toBe(403);
  });

  it('answers 403 for a tenant token on the internal console', async () => {
    const { ENDPOINTS } = await import('#shared/contract/registry.ts');
    // One that needs no input, so validation (which runs first) has nothing to refuse.
    const internal = ENDPOINTS.find(
      (endpoint) =>
        endpoint.surface === 'internal' &&
        endpoint.method === 'GET' &&
        endpoint.auth !== 'public' &&
        !endpoint.fullPath.includes('{') &&
        endpoint.query.safeParse({}).success,
    );
    expect(internal).toBeDefined();
    const { id_token } = await signIn('admin@demo.test');
    const response = await api(internal!.fullPath, { headers: bearer(id_token) });
    expect(response.status).toBe(403);
  });
});
