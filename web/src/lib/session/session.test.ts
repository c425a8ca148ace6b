import { beforeEach, describe, expect, it } from 'vitest';
import { licenceEndpoints } from '#shared/contract/endpoints/licences.ts';
import type { SurfaceBases } from '../api-client.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { AUTH_STORAGE_KEY, memoryStorage } from './auth-storage.ts';
import { AuthExpiredError, ENDING_SUPPORT_MODE, Session, SIGN_IN_STATE_KEY } from './session.ts';

const BASES: SurfaceBases = { admin: '/api/v1', client: '/api/v1', internal: '/internal/v1', device: '/device/v1' };
const PROFILE = { user_reference: 'u-1', client: 'demo', actions: ['*'], groups: [], payload_types: ['Call'], roles: ['admin'] };

/** A fake API: records each request and answers from a handler keyed by `METHOD path`. */
function fakeApi(handlers: Record<string, (url: URL, init: RequestInit) => unknown>) {
  const requests: { method: string; url: URL; authorization: string | null }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost:4000');
    const method = init.method ?? 'GET';
    requests.push({ method, url, authorization: new Headers(init.headers).get('authorization') });
    const handler = handlers[`${method} ${url.pathname}`];
    if (handler === undefined) return new Response(JSON.stringify({ error_code: 404, message: 'no route' }), { status: 404 });
    const body = handler(url, init);
    if (body instanceof Response) return body;
    return new Response(JSON.stringify(body), { status: 200 });
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

function setup(handlers: Record<string, (url: URL, init: RequestInit) => unknown>, initial?: object) {
  const storage = memoryStorage();
  if (initial) storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(initial));
  const flowStorage = memoryStorage();
  const api = fakeApi(handlers);
  const navigations: string[] = [];
  const external: string[] = [];
  const notices: string[] = [];
  const clock = { now: 1_000_000 };
  const session = new Session({
    storage,
    flowStorage,
    origin: 'http://localhost:4000',
    navigate: (to) => navigations.push(to),
    navigateExternal: (url) => external.push(url),
    notify: (message) => notices.push(message),
    now: () => clock.now,
    fetch: api.fetch,
    bases: BASES,
    log: () => undefined,
  });
  return { session, storage, flowStorage, api, navigations, external, notices, clock };
}

const signedIn = { client: 'demo', idToken: 'id-1', refreshToken: 'r-1', expiresAt: 1_000_000 + 60_000 };

describe('Session', () => {
  let tokens: number;
  beforeEach(() => {
    tokens = 1;
  });
  const refreshHandler = () => ({ id_token: `id-${++tokens}`, expires_in: 3600 });

  it('login sets the client, asks for the sign-in URL with the local port, and leaves with a state', async () => {
    const t = setup({ 'GET /api/v1/acme/url': () => ({ url: 'http://localhost:4000/oidc/auth?client_id=acme' }) }, { client: 'demo', supportReference: 'sr-1' });
    await t.session.login('acme');
    expect(t.api.requests[0]!.url.searchParams.get('local_port')).toBe('4000');
    const target = new URL(t.external[0]!);
    expect(target.searchParams.get('client_id')).toBe('acme');
    expect(target.searchParams.get('state')).toBe(t.flowStorage.getItem(SIGN_IN_STATE_KEY));
    expect(t.session.getState()).toEqual({ client: 'acme' });
  });

  it('completes sign-in only with the state it sent, and stores tokens and the profile', async () => {
    const t = setup({
      'GET /api/v1/demo/exchange': (url) => {
        expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:4000/sign-in');
        return { id_token: 'id-new', refresh_token: 'r-new', expires_in: 3600 };
      },
      'GET /api/v1/demo/profile': () => PROFILE,
    }, { client: 'demo' });
    t.flowStorage.setItem(SIGN_IN_STATE_KEY, 'state-1');
    expect(await t.session.completeSignIn('code', 'forged')).toBe(false);
    expect(t.session.isLoggedIn).toBe(false);

    t.flowStorage.setItem(SIGN_IN_STATE_KEY, 'state-1');
    expect(await t.session.completeSignIn('code', 'state-1')).toBe(true);
    expect(t.session.getState()).toMatchObject({ idToken: 'id-new', refreshToken: 'r-new', expiresAt: 1_000_000 + 3_600_000 });
    expect(t.session.getState().user).toMatchObject({ reference: 'u-1', payloadTypes: ['Call'] });
    expect(JSON.parse(t.storage.getItem(AUTH_STORAGE_KEY)!)).toMatchObject({ idToken: 'id-new' });
  });

  it('a failed code exchange returns failure and stores nothing', async () => {
    const t = setup({ 'GET /api/v1/demo/exchange': () => new Response('{"error_code":400,"message":"bad code"}', { status: 400 }) }, { client: 'demo' });
    t.flowStorage.setItem(SIGN_IN_STATE_KEY, 's');
    expect(await t.session.completeSignIn('code', 's')).toBe(false);
    expect(t.session.isLoggedIn).toBe(false);
  });

  it('treats the token as expiring 5 s early and refreshes once for many concurrent calls', async () => {
    const t = setup({ 'GET /api/v1/demo/exchange': refreshHandler }, signedIn);
    t.clock.now = signedIn.expiresAt - 5_001;
    expect(await t.session.token()).toBe('id-1');
    t.clock.now = signedIn.expiresAt - 5_000;
    const results = await Promise.all([t.session.token(), t.session.token(), t.session.token()]);
    expect(results).toEqual(['id-2', 'id-2', 'id-2']);
    expect(t.api.requests.filter((request) => request.url.pathname.endsWith('/exchange'))).toHaveLength(1);
  });

  it('a failed refresh logs the user out and sends them to /sign-in', async () => {
    const t = setup({ 'GET /api/v1/demo/exchange': () => new Response('{"error_code":401,"message":"expired"}', { status: 401 }) }, {
      ...signedIn,
      user: { reference: 'u', actions: [], groups: [], roles: [], payloadTypes: [] },
    });
    t.clock.now = signedIn.expiresAt;
    await expect(t.session.token()).rejects.toBeInstanceOf(AuthExpiredError);
    expect(t.session.getState()).toEqual({ client: 'demo' });
    expect(t.navigations).toEqual(['/sign-in']);
  });

  it('refuses an authenticated call without a token', async () => {
    const t = setup({});
    await expect(t.session.token()).rejects.toThrow('Authentication expired');
  });

  it('staff refresh through the internal exchange, and support mode sends internal-<reference>', async () => {
    const t = setup(
      {
        'GET /internal/v1/exchange': refreshHandler,
        'GET /api/v1/admin/profile': () => ({ ...PROFILE, client: 'admin' }),
        'GET /api/v1/demo/profile': () => PROFILE,
      },
      { ...signedIn, client: 'admin' },
    );
    expect(t.session.isAdmin).toBe(true);
    await t.session.enterSupportMode('sr-9', 'demo');
    expect(t.session.isSupportMode).toBe(true);
    expect(t.navigations).toEqual(['/dashboard']);
    const profileCall = t.api.requests.find((request) => request.url.pathname === '/api/v1/demo/profile')!;
    expect(profileCall.authorization).toBe('internal-sr-9 id-1');

    t.clock.now = signedIn.expiresAt;
    await t.session.token();
    expect(t.api.requests.some((request) => request.url.pathname === '/internal/v1/exchange')).toBe(true);

    await t.session.endSupportMode();
    expect(t.notices).toEqual([ENDING_SUPPORT_MODE]);
    expect(t.session.getState()).toMatchObject({ client: 'admin' });
    expect(t.session.getState().supportReference).toBeUndefined();
    expect(t.navigations).toEqual(['/dashboard', '/internal/support']);
    await expect(t.session.endSupportMode()).rejects.toThrow('Support mode is not active');
  });

  it('in support mode a staff (internal) endpoint is called without the support header', async () => {
    const t = setup({ 'GET /internal/v1/clients': () => ({ count: 0, data: [] }) }, { ...signedIn, client: 'demo', supportReference: 'sr-9' });
    await t.session.call(endpointOf(licenceEndpoints, 'internal.clients.list'), { query: {} }).catch(() => undefined);
    const call = t.api.requests.find((request) => request.url.pathname.startsWith('/internal/v1/'));
    expect(call?.authorization).toBe('Bearer id-1');
  });

  it('a failed profile load is only logged', async () => {
    const t = setup({ 'GET /api/v1/demo/profile': () => new Response('{"error_code":500,"message":"boom"}', { status: 500 }) }, signedIn);
    expect(await t.session.loadProfile()).toBeUndefined();
    expect(t.session.isLoggedIn).toBe(true);
  });

  it('reads a tampered stored state as signed out', () => {
    const storage = memoryStorage();
    storage.setItem(AUTH_STORAGE_KEY, '{"idToken": 42}');
    const t = setup({});
    t.storage.setItem(AUTH_STORAGE_KEY, storage.getItem(AUTH_STORAGE_KEY)!);
    t.session.reloadFromStorage();
    expect(t.session.isLoggedIn).toBe(false);
  });
});
