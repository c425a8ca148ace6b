import { UnsecuredJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearDiscoveryCache } from '../../auth/oidc-discovery.ts';
import { HttpError } from '../../errors.ts';
import { createOidcIdentityDirectory, scopesFor } from './oidc-identity-directory.ts';
import { IdentitySettings, portalAppClient } from './portal-app-clients.ts';
import type { FormFetch } from './token-endpoint.ts';

const ISSUER = 'http://localhost:4999/oidc';
const STAFF_ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_staff';

interface Recorded {
  url: string;
  method: string;
  contentType: string | null;
  form: URLSearchParams;
}

/** A provider on fake fetch: discovery per issuer, and a token endpoint answering whatever the test says. */
function fakeProvider(token: (form: URLSearchParams) => Response | Promise<Response>, discoveryExtras: Record<string, unknown> = {}) {
  const posted: Recorded[] = [];
  const fetchImpl: FormFetch = async (input, init) => {
    const url = new URL(input);
    if (url.pathname.endsWith('/.well-known/openid-configuration')) {
      const issuer = input.replace('/.well-known/openid-configuration', '');
      return Response.json({
        issuer,
        jwks_uri: `${issuer}/jwks`,
        authorization_endpoint: `${issuer}/auth?tenant_hint=x`,
        token_endpoint: `${issuer}/token`,
        ...discoveryExtras,
      });
    }
    const form = new URLSearchParams(String(init?.body ?? ''));
    posted.push({ url: input, method: init?.method ?? 'GET', contentType: new Headers(init?.headers).get('content-type'), form });
    return token(form);
  };
  return { fetchImpl, posted };
}

const localSettings = IdentitySettings.parse({ VERITY_MODE: 'local', OIDC_ISSUER: ISSUER });
const awsSettings = IdentitySettings.parse({
  VERITY_MODE: 'aws',
  OIDC_ISSUER: ISSUER,
  STAFF_OIDC_ISSUER: STAFF_ISSUER,
  TENANT_CLIENT_ID: 'tenant-app',
  TENANT_USER_POOL_ID: 'eu-west-1_tenants',
  STAFF_CLIENT_ID: 'staff-app',
  STAFF_USER_POOL_ID: 'eu-west-1_staff',
});

const idToken = (claims: Record<string, unknown> = {}, exp = Math.floor(Date.now() / 1000) + 3600) =>
  new UnsecuredJWT({ 'custom:client': 'demo', ...claims }).setSubject('u1').setExpirationTime(exp).encode();

async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string; expose: boolean }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message, expose: error.expose };
    throw error;
  }
  throw new Error('expected a failure');
}

beforeEach(() => clearDiscoveryCache());

describe('portalAppClient (the one client -> app client mapping)', () => {
  it('locally gives each tenant and staff their own public client on one issuer', () => {
    expect(portalAppClient('demo', localSettings)).toEqual({ clientId: 'verity-demo-portal', issuer: ISSUER });
    expect(portalAppClient('admin', localSettings)).toEqual({ clientId: 'verity-admin-portal', issuer: ISSUER });
  });

  it('in AWS shares the tenant pool client and sends staff to the staff pool', () => {
    expect(portalAppClient('demo', awsSettings)).toEqual({ clientId: 'tenant-app', issuer: ISSUER, userPoolId: 'eu-west-1_tenants' });
    expect(portalAppClient('admin', awsSettings)).toEqual({ clientId: 'staff-app', issuer: STAFF_ISSUER, userPoolId: 'eu-west-1_staff' });
  });

  it('answers a 500 that shows nothing when AWS variables are missing', async () => {
    const bare = IdentitySettings.parse({ VERITY_MODE: 'aws', OIDC_ISSUER: ISSUER, TENANT_CLIENT_ID: '  ' });
    const error = await failure(Promise.resolve().then(() => portalAppClient('demo', bare)));
    expect(error).toMatchObject({ status: 500, expose: false });
    expect(error.message).toContain('TENANT_CLIENT_ID');
  });
});

describe('scopesFor', () => {
  const base = { issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` };
  it('asks for offline_access only where the provider lists it', () => {
    expect(scopesFor({ ...base, scopes_supported: ['openid', 'email', 'profile', 'offline_access'] } as never)).toBe(
      'openid email profile offline_access',
    );
    expect(scopesFor({ ...base, scopes_supported: ['openid', 'email', 'phone', 'profile'] } as never)).toBe('openid email profile');
    expect(scopesFor(base)).toBe('openid email profile');
  });
});

describe('createOidcIdentityDirectory', () => {
  it('builds the authorize URL from discovery: code flow, the tenant client, redirect, scope, state', async () => {
    const { fetchImpl } = fakeProvider(() => new Response(null, { status: 500 }));
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
    const url = new URL(await directory.signInUrl('demo', 'http://localhost:3000/sign-in', 's&t=1'));
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant_hint: 'x',
      response_type: 'code',
      client_id: 'verity-demo-portal',
      redirect_uri: 'http://localhost:3000/sign-in',
      scope: 'openid email profile',
      state: 's&t=1',
    });
  });

  it('sends staff to the staff issuer in AWS', async () => {
    const { fetchImpl } = fakeProvider(() => new Response(null, { status: 500 }));
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: awsSettings, fetch: fetchImpl });
    const url = new URL(await directory.signInUrl('admin', 'https://portal.example.com/sign-in'));
    expect(url.href.startsWith(`${STAFF_ISSUER}/auth`)).toBe(true);
    expect(url.searchParams.get('client_id')).toBe('staff-app');
  });

  it('redeems a code with a form-encoded public-client grant and maps the answer', async () => {
    const token = idToken();
    const { fetchImpl, posted } = fakeProvider(() =>
      Response.json({ id_token: token, refresh_token: 'r1', access_token: 'a', token_type: 'Bearer', expires_in: 3600 }),
    );
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
    const tokens = await directory.exchangeCode('demo', 'c'.repeat(36), 'http://localhost:3000/sign-in');
    expect(tokens).toEqual({ idToken: token, refreshToken: 'r1', expiresIn: 3600 });
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ url: `${ISSUER}/token`, method: 'POST', contentType: 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(posted[0]!.form)).toEqual({
      grant_type: 'authorization_code',
      code: 'c'.repeat(36),
      redirect_uri: 'http://localhost:3000/sign-in',
      client_id: 'verity-demo-portal',
    });
  });

  it('cannot be steered by a hostile code: it stays one form value', async () => {
    const { fetchImpl, posted } = fakeProvider(() => Response.json({ error: 'invalid_grant' }, { status: 400 }));
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
    const hostile = 'x&grant_type=password&client_id=evil=%00\n';
    await failure(directory.exchangeCode('demo', hostile, 'http://localhost:3000/sign-in'));
    const form = posted[0]!.form;
    expect(form.getAll('grant_type')).toEqual(['authorization_code']);
    expect(form.getAll('client_id')).toEqual(['verity-demo-portal']);
    expect(form.get('code')).toBe(hostile);
  });

  it('refreshes with the refresh grant; a provider that does not rotate gives no refresh token', async () => {
    const token = idToken();
    const { fetchImpl, posted } = fakeProvider(() => Response.json({ id_token: token, expires_in: '300' }));
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: awsSettings, fetch: fetchImpl });
    expect(await directory.refresh('demo', 'r-old')).toEqual({ idToken: token, expiresIn: 300 });
    expect(Object.fromEntries(posted[0]!.form)).toEqual({ grant_type: 'refresh_token', refresh_token: 'r-old', client_id: 'tenant-app' });
  });

  it('takes the expiry from the id token when expires_in is missing', async () => {
    const now = Date.UTC(2025, 0, 1);
    const token = idToken({}, now / 1000 + 120);
    const { fetchImpl } = fakeProvider(() => Response.json({ id_token: token }));
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl, now: () => now });
    expect((await directory.refresh('demo', 'r')).expiresIn).toBe(120);
  });

  it('maps a refused code to 400 and a refused refresh token to 401, with a clear message', async () => {
    for (const body of [{ error: 'invalid_grant', error_description: 'grant request is invalid' }, { error: 'invalid_request' }, 'not json']) {
      const { fetchImpl } = fakeProvider(() =>
        typeof body === 'string' ? new Response(body, { status: 400 }) : Response.json(body, { status: 400 }),
      );
      const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
      expect(await failure(directory.exchangeCode('demo', 'c'.repeat(36), 'http://localhost:3000/sign-in'))).toEqual({
        status: 400,
        message: 'query.code: Sign-in code is invalid or expired',
        expose: true,
      });
      expect(await failure(directory.refresh('demo', 'junk'))).toEqual({
        status: 401,
        message: 'Refresh token is invalid or expired',
        expose: true,
      });
    }
  });

  it('treats a refusal of our own app client as a hidden 500, not as the caller’s fault', async () => {
    const { fetchImpl } = fakeProvider(() => Response.json({ error: 'invalid_client' }, { status: 401 }));
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
    expect(await failure(directory.refresh('demo', 'r'))).toMatchObject({ status: 500, expose: false });
  });

  it('answers 503 when the provider is down, slow, overloaded or talks nonsense', async () => {
    const answers: Array<() => Response> = [
      () => {
        throw new TypeError('fetch failed');
      },
      () => new Response('oops', { status: 502 }),
      () => Response.json({ error: 'slow_down' }, { status: 429 }),
      () => new Response('<html>', { status: 200 }),
      () => Response.json({ access_token: 'a' }),
      () => Response.json({ id_token: 'not-a-jwt' }),
    ];
    for (const answer of answers) {
      const { fetchImpl } = fakeProvider(answer);
      const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
      expect((await failure(directory.exchangeCode('demo', 'c'.repeat(36), 'http://localhost:3000/sign-in'))).status).toBe(503);
    }
  });

  it('answers 503 when discovery fails or names no endpoints', async () => {
    const down: FormFetch = async () => {
      throw new TypeError('fetch failed');
    };
    const directory = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: down });
    expect((await failure(directory.signInUrl('demo', 'http://localhost:3000/sign-in'))).status).toBe(503);

    clearDiscoveryCache();
    const { fetchImpl } = fakeProvider(() => Response.json({}), { authorization_endpoint: undefined, token_endpoint: undefined });
    const bare = createOidcIdentityDirectory({ issuer: ISSUER, settings: localSettings, fetch: fetchImpl });
    expect((await failure(bare.signInUrl('demo', 'http://localhost:3000/sign-in'))).status).toBe(503);
    expect((await failure(bare.refresh('demo', 'r'))).status).toBe(503);
  });
});
