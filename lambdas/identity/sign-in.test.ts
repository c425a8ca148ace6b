import { UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { HttpError } from '#core/errors.ts';
import type { IdentityDirectory, PortalTokens } from '#core/ports/identity-directory.ts';
import type { TableItem } from '#core/ports/table-store.ts';
import { keys } from '#core/store/keys.ts';
import { accountMetadata } from './account-metadata.ts';
import { createMemoryTable } from '#core/testing/memory-table.ts';
import { signInRedirectUri } from './redirect-uri.ts';
import { exchangeTokens, signInUrl } from './sign-in.ts';

const demoAccount: TableItem = { ...keys.account.item('demo'), client: 'demo', display_name: 'Demo Ltd', account_defaults: { role: 'reviewer' } };

const idTokenOf = (client: string | undefined) =>
  new UnsecuredJWT(client === undefined ? {} : { 'custom:client': client }).setSubject('u1').setExpirationTime('1h').encode();

/** A directory that records calls and answers the given tokens. */
function fakeDirectory(tokens: Partial<PortalTokens> & { client?: string | undefined } = {}) {
  const calls: unknown[][] = [];
  const answer = (): PortalTokens => ({
    idToken: tokens.idToken ?? idTokenOf('client' in tokens ? tokens.client : 'demo'),
    expiresIn: tokens.expiresIn ?? 3600,
    ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
  });
  const directory: IdentityDirectory = {
    issuer: 'http://localhost:1/oidc',
    discovery: () => Promise.reject(new Error('unused')),
    appClient: (client) => ({ clientId: `verity-${client}-portal`, issuer: 'http://localhost:1/oidc' }),
    signInUrl: async (...args) => {
      calls.push(['signInUrl', ...args]);
      return `http://localhost:1/oidc/auth?client_id=verity-${args[0]}-portal`;
    },
    exchangeCode: async (...args) => {
      calls.push(['exchangeCode', ...args]);
      return answer();
    },
    refresh: async (...args) => {
      calls.push(['refresh', ...args]);
      return answer();
    },
    findUser: async () => undefined,
  };
  return { directory, calls };
}

async function statusOf(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

const CODE = 'a'.repeat(36);
const REDIRECT = 'http://localhost:3000/sign-in';

describe('signInRedirectUri', () => {
  it('prefers local_port, then PORTAL_URL, then localhost:3000 in local mode only', () => {
    expect(signInRedirectUri({ mode: 'aws', portalUrl: 'https://portal.example.com/', localPort: 5173 })).toBe('http://localhost:5173/sign-in');
    expect(signInRedirectUri({ mode: 'aws', portalUrl: 'https://portal.example.com/' })).toBe('https://portal.example.com/sign-in');
    expect(signInRedirectUri({ mode: 'local', portalUrl: undefined })).toBe('http://localhost:3000/sign-in');
    expect(() => signInRedirectUri({ mode: 'aws', portalUrl: undefined })).toThrow(/PORTAL_URL/);
  });
});

describe('signInUrl', () => {
  it('answers the provider URL and the public client id for a known tenant', async () => {
    const { directory, calls } = fakeDirectory();
    const result = await signInUrl({ table: createMemoryTable([demoAccount]), identity: directory, mode: 'local' }, 'demo', {
      localPort: 4321,
      portalUrl: undefined,
    });
    expect(result).toEqual({ url: 'http://localhost:1/oidc/auth?client_id=verity-demo-portal', client_id: 'verity-demo-portal' });
    expect(calls).toEqual([['signInUrl', 'demo', 'http://localhost:4321/sign-in']]);
  });

  it('refuses an unknown tenant with 404 before asking the provider', async () => {
    const { directory, calls } = fakeDirectory();
    const deps = { table: createMemoryTable([demoAccount]), identity: directory, mode: 'local' as const };
    expect(await statusOf(signInUrl(deps, 'nobody', { portalUrl: undefined }))).toEqual({ status: 404, message: 'Unknown client' });
    expect(calls).toEqual([]);
  });

  it('knows the staff client without an account item', async () => {
    const { directory } = fakeDirectory();
    const result = await signInUrl({ table: createMemoryTable(), identity: directory, mode: 'local' }, 'admin', { portalUrl: undefined });
    expect(result.client_id).toBe('verity-admin-portal');
  });
});

describe('exchangeTokens', () => {
  it('redeems a code with its redirect URI', async () => {
    const { directory, calls } = fakeDirectory({ refreshToken: 'r-new' });
    const deps = { table: createMemoryTable([demoAccount]), identity: directory, mode: 'local' as const };
    const result = await exchangeTokens(deps, 'demo', { code: CODE, redirect_uri: REDIRECT });
    expect(result).toMatchObject({ refresh_token: 'r-new', expires_in: 3600 });
    expect(calls).toEqual([['exchangeCode', 'demo', CODE, REDIRECT]]);
  });

  it('keeps the presented refresh token when the provider does not rotate it (Cognito)', async () => {
    const { directory, calls } = fakeDirectory();
    const deps = { table: createMemoryTable([demoAccount]), identity: directory, mode: 'aws' as const };
    expect((await exchangeTokens(deps, 'demo', { refresh_token: 'r-old' })).refresh_token).toBe('r-old');
    expect(calls).toEqual([['refresh', 'demo', 'r-old']]);
  });

  it('refuses a token of another tenant (one shared app client in AWS) with 403', async () => {
    const { directory } = fakeDirectory({ client: 'acme' });
    const deps = { table: createMemoryTable([demoAccount]), identity: directory, mode: 'aws' as const };
    expect(await statusOf(exchangeTokens(deps, 'demo', { code: CODE, redirect_uri: REDIRECT }))).toEqual({
      status: 403,
      message: 'This account belongs to another client',
    });
    expect((await statusOf(exchangeTokens(deps, 'demo', { refresh_token: 'r' }))).status).toBe(403);
  });

  it('refuses a tenant token carrying no client, but accepts a staff-pool token without one', async () => {
    const noClient = fakeDirectory({ client: undefined }).directory;
    const tenantDeps = { table: createMemoryTable([demoAccount]), identity: noClient, mode: 'aws' as const };
    expect((await statusOf(exchangeTokens(tenantDeps, 'demo', { refresh_token: 'r' }))).status).toBe(403);
    await expect(exchangeTokens({ ...tenantDeps, table: createMemoryTable() }, 'admin', { refresh_token: 'r' })).resolves.toMatchObject({
      expires_in: 3600,
    });
  });

  it('answers 404 for an unknown tenant and 400 with neither code nor refresh token', async () => {
    const { directory, calls } = fakeDirectory();
    const deps = { table: createMemoryTable([demoAccount]), identity: directory, mode: 'local' as const };
    expect((await statusOf(exchangeTokens(deps, 'acme', { refresh_token: 'r' }))).status).toBe(404);
    expect((await statusOf(exchangeTokens(deps, 'demo', { code: CODE }))).status).toBe(400);
    expect(calls).toEqual([]);
  });

  it('answers 503 when the provider hands back an unreadable id token', async () => {
    const { directory } = fakeDirectory({ idToken: 'garbage' });
    const deps = { table: createMemoryTable([demoAccount]), identity: directory, mode: 'local' as const };
    expect((await statusOf(exchangeTokens(deps, 'demo', { refresh_token: 'r' }))).status).toBe(503);
  });
});

describe('accountMetadata', () => {
  it('shows only public facts of a tenant', async () => {
    const { directory } = fakeDirectory();
    expect(await accountMetadata({ table: createMemoryTable([demoAccount]), identity: directory }, 'demo')).toEqual({
      client: 'demo',
      display_name: 'Demo Ltd',
      client_id: 'verity-demo-portal',
      is_admin: false,
    });
  });

  it('describes the staff portal and refuses unknown tenants', async () => {
    const { directory } = fakeDirectory();
    expect(await accountMetadata({ table: createMemoryTable(), identity: directory }, 'admin')).toMatchObject({ client: 'admin', is_admin: true });
    expect(await statusOf(accountMetadata({ table: createMemoryTable(), identity: directory }, 'demo'))).toEqual({
      status: 404,
      message: 'Unknown client',
    });
  });
});
