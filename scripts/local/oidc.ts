import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { Provider, interactionPolicy, type ProviderContext } from 'oidc-provider';
import { STAFF_CLIENT, findAccountBySub, verifyCredentials, type DemoAccount } from './seed/accounts.ts';
import { createFileStore } from './oidc-store.ts';
import { errorPage, signInPage } from './oidc-views.ts';

/**
 * The local stand-in for Cognito's hosted UI (DESIGN.md §1): oidc-provider with the demo accounts.
 *
 * Decision: the provider is MOUNTED under `/oidc` on the main port (issuer `http://localhost:<port>/oidc`),
 * not on a port of its own: one origin means no CORS between portal and IdP, one port to forward, and the
 * issuer URL is predictable from the API URL. Discovery is at `<issuer>/.well-known/openid-configuration`.
 *
 * Like Cognito it issues RS256 id tokens carrying `email`, `custom:client`, `cognito:groups`, `token_use: id`,
 * and rotating refresh tokens. One public client per tenant (`verity-<tenant>-portal`) and one for staff
 * (`verity-admin-portal`); as with one Cognito app client per tenant, a client only signs in its own accounts.
 */
export const OIDC_MOUNT_PATH = '/oidc';

/** Client id of a tenant's portal (or the staff portal for `admin`). */
export function portalClientId(client: string): string {
  return `verity-${client}-portal`;
}

const CLIENT_ID_PATTERN = /^verity-([a-z0-9-]+)-portal$/;

/** The claims every id token carries, as Cognito's do; listed under `openid` so no extra scope is needed. */
const ID_TOKEN_CLAIMS = ['sub', 'email', 'email_verified', 'given_name', 'family_name', 'custom:client', 'cognito:groups', 'cognito:username', 'token_use'];

export interface LocalOidcOptions {
  /** `http://localhost:<port>/oidc` */
  issuer: string;
  /** Keys, cookie secrets and the artefact store live here (`<dataDir>/oidc`). */
  directory: string;
  /** Tenants that get a portal client. */
  tenants: readonly string[];
  /** Portal origins whose `/sign-in` is a registered redirect URI. Any localhost port is accepted too. */
  portalOrigins: readonly string[];
}

export interface LocalOidc {
  issuer: string;
  clientIds: string[];
  /** Handles a request under `/oidc`; answers false when the path is not the provider's. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

/** Reads the signing keys, creating them once: tokens then verify across restarts. */
export async function loadOrCreateSigningKeys(directory: string): Promise<{ keys: JWK[] }> {
  const file = join(directory, 'jwks.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { keys: JWK[] };
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const jwks = { keys: [{ ...jwk, kid: `local-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' }] };
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, JSON.stringify(jwks), { mode: 0o600 });
  return jwks;
}

function loadOrCreateCookieKeys(directory: string): string[] {
  const file = join(directory, 'cookie-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as string[];
  const keys = [randomBytes(32).toString('base64url')];
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** The tenant (or `admin`) a portal client id belongs to. */
function clientOf(clientId: unknown): string | undefined {
  return typeof clientId === 'string' ? CLIENT_ID_PATTERN.exec(clientId)?.[1] : undefined;
}

function claimsFor(account: DemoAccount): Record<string, unknown> {
  return {
    sub: account.sub,
    email: account.email,
    email_verified: true,
    // Cognito's standard attributes: the portal's header names the person by them.
    given_name: account.firstName,
    family_name: account.surname,
    'custom:client': account.client,
    'cognito:groups': account.groups,
    'cognito:username': account.sub,
    token_use: 'id',
  };
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

const MAX_FORM_BYTES = 16 * 1024;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page needs no script at all; forbid it outright.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  });
  res.end(html);
}

export async function createLocalOidc(options: LocalOidcOptions): Promise<LocalOidc> {
  const jwks = await loadOrCreateSigningKeys(options.directory);
  const clientNames = [...options.tenants, STAFF_CLIENT];
  const redirectUris = options.portalOrigins.map((origin) => `${origin}/sign-in`);
  const clients = clientNames.map((name) => ({
    client_id: portalClientId(name),
    client_name: name === STAFF_CLIENT ? 'Verity staff portal' : `Verity portal (${name})`,
    // `native` makes oidc-provider accept the registered loopback redirect on ANY port (RFC 8252 §7.3),
    // so `vite dev` on :5173 and the stack on a test's free port both work without listing them.
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: redirectUris,
    post_logout_redirect_uris: options.portalOrigins.map((origin) => `${origin}/sign-in`),
  }));

  const policy = interactionPolicy.base();
  // A browser session from another tenant must not silently sign in here: ask for credentials again.
  policy.get('login')?.checks.add(
    new interactionPolicy.Check('tenant_mismatch', 'the signed-in account belongs to another client', (ctx) => {
      const sub = ctx.oidc.session?.accountId;
      const account = sub ? findAccountBySub(sub) : undefined;
      return account !== undefined && account.client !== clientOf(ctx.oidc.client?.clientId);
    }),
  );

  const provider = new Provider(options.issuer, {
    adapter: createFileStore(join(options.directory, 'store.json')),
    clients,
    jwks,
    cookies: { keys: loadOrCreateCookieKeys(options.directory) },
    claims: { openid: ID_TOKEN_CLAIMS, email: ['email', 'email_verified'] },
    // Cognito puts the profile claims in the id token; so do we (the spec's backend reads only the id token).
    conformIdTokenClaims: false,
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    // Cognito's codes are UUIDs (36 characters) and the contract's OAuth2Code is exactly 36: issue codes of that
    // length (216 random bits in base64url). Other tokens keep the library's default.
    formats: {
      bitsOfOpaqueRandomness: (_ctx: unknown, token: { kind: string }) => (token.kind === 'AuthorizationCode' ? 216 : 256),
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
    },
    // The portal's backend exchanges the code (spec: GET exchange), like a Cognito public client without PKCE.
    pkce: { required: () => false },
    // Cognito always returns a refresh token with the code exchange, whatever the scope.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 300,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 30 * 24 * 3600,
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = findAccountBySub(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => claimsFor(account) };
    },
    // Consent is implied for these first-party clients: grant what was asked for.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const clientId = ctx.oidc.client?.clientId ?? '';
      const accountId = ctx.oidc.session?.accountId ?? '';
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing && existing.accountId === accountId) return existing;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
      grant.addOIDCClaims(ID_TOKEN_CLAIMS);
      await grant.save();
      return grant;
    },
    interactions: {
      policy,
      url: (_ctx: unknown, interaction: { uid: string }) => `${OIDC_MOUNT_PATH}/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx: unknown, origin: string) => isLoopbackOrigin(origin),
    renderError: async (ctx: ProviderContext, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = errorPage('Sign-in error', out.error_description ?? out.error ?? 'Unknown error');
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      sendHtml(res, 400, errorPage('Sign-in expired', 'This sign-in link has expired. Start again from the portal.'));
      return;
    }
    if (details.uid !== uid) {
      sendHtml(res, 400, errorPage('Sign-in expired', 'This sign-in link has expired. Start again from the portal.'));
      return;
    }
    const action = `${OIDC_MOUNT_PATH}/interaction/${uid}`;
    const client = clientOf(details.params.client_id) ?? '';
    const clientLabel = client === STAFF_CLIENT ? 'Verity staff' : `Client ${client}`;

    if (details.prompt.name === 'consent') {
      // Normally loadExistingGrant answers consent; kept for safety, granting what was asked.
      const grant = new provider.Grant({ clientId: String(details.params.client_id), accountId: details.session?.accountId ?? '' });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      grant.addOIDCClaims(ID_TOKEN_CLAIMS);
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      return;
    }
    if (req.method === 'GET') {
      sendHtml(res, 200, signInPage({ action, clientLabel }));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST' }).end();
      return;
    }
    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch {
      sendHtml(res, 413, errorPage('Sign-in error', 'The form was too large.'));
      return;
    }
    const email = form.get('username') ?? '';
    const account = verifyCredentials(email, form.get('password') ?? '');
    // Same message whether the email is unknown, the password wrong, or the account is another client's.
    if (!account || account.client !== client) {
      sendHtml(res, 401, signInPage({ action, clientLabel, email, error: 'Invalid email or password' }));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
  }

  return {
    issuer: options.issuer,
    clientIds: clients.map((client) => client.client_id),
    async handle(req, res) {
      const url = req.url ?? '/';
      if (url !== OIDC_MOUNT_PATH && !url.startsWith(`${OIDC_MOUNT_PATH}/`) && !url.startsWith(`${OIDC_MOUNT_PATH}?`)) return false;
      const path = url.split('?')[0] ?? '';
      const interactionMatch = /^\/oidc\/interaction\/([A-Za-z0-9_-]+)$/.exec(path);
      if (interactionMatch) {
        await interaction(req, res, interactionMatch[1] as string);
        return true;
      }
      // Mounted like Express does it: the provider sees the path below the mount, `originalUrl` keeps the rest.
      const mounted = req as IncomingMessage & { originalUrl?: string };
      mounted.originalUrl = url;
      req.url = url.slice(OIDC_MOUNT_PATH.length) || '/';
      callback(req, res);
      return true;
    },
  };
}
