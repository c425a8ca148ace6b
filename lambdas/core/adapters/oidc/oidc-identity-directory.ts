import * as z from 'zod';
import { discoverIssuer, type OidcDiscovery } from '../../auth/oidc-discovery.ts';
import { ServiceUnavailableError } from '../../errors.ts';
import type { IdentityDirectory } from '../../ports/identity-directory.ts';
import { portalAppClient, type IdentitySettings } from './portal-app-clients.ts';
import { redeemGrant, type FormFetch } from './token-endpoint.ts';

/** What the portal asks for; `offline_access` only where the provider lists it (Cognito does not, and refuses it). */
const WANTED_SCOPES = ['openid', 'email', 'profile', 'offline_access'] as const;
const ALWAYS_SAFE_SCOPES = new Set(['openid', 'email', 'profile']);

const ScopesSupported = z.object({ scopes_supported: z.array(z.string()).optional() }).catch({});

/**
 * The scopes to request. Without `scopes_supported` in the discovery document, only the three every OIDC provider
 * (Cognito included) accepts; both providers issue refresh tokens on the code grant without `offline_access`.
 */
export function scopesFor(discovery: OidcDiscovery): string {
  const supported = ScopesSupported.parse(discovery).scopes_supported;
  return WANTED_SCOPES.filter((scope) => (supported ? supported.includes(scope) : ALWAYS_SAFE_SCOPES.has(scope))).join(' ');
}

export interface OidcIdentityDirectoryOptions {
  /** The tenant issuer (`OIDC_ISSUER`). */
  issuer: string;
  /** The identity variables (from the validated config: `identitySettingsFrom(config, issuer)`). */
  settings: IdentitySettings;
  fetch?: FormFetch;
  now?: () => number;
}

/**
 * IdentityDirectory over plain OIDC: Cognito and the local provider share this code path (DESIGN.md §1). Endpoints
 * come from each issuer's discovery document; which app client a tenant uses is `portalAppClient`'s one decision.
 * User lookup needs the provider's admin API (Cognito AdminGetUser, the local provider's account store); it arrives
 * with the user-management endpoints, so for now no user is found.
 */
export function createOidcIdentityDirectory(options: OidcIdentityDirectoryOptions): IdentityDirectory {
  const { settings } = options;
  const fetchImpl: FormFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const appClient = (client: string) => portalAppClient(client, settings);
  const discoveryOf = (issuer: string) => discoverIssuer(issuer, fetchImpl);

  async function endpoint(issuer: string, name: 'authorization_endpoint' | 'token_endpoint'): Promise<string> {
    const discovery = await discoveryOf(issuer);
    const url = discovery[name];
    if (url === undefined) throw new ServiceUnavailableError(`OIDC discovery of ${issuer} names no ${name}`);
    return url;
  }

  return {
    issuer: options.issuer,
    discovery: () => discoveryOf(options.issuer),
    appClient,

    async signInUrl(client, redirectUri, state) {
      const app = appClient(client);
      const discovery = await discoveryOf(app.issuer);
      if (discovery.authorization_endpoint === undefined) {
        throw new ServiceUnavailableError(`OIDC discovery of ${app.issuer} names no authorization_endpoint`);
      }
      const url = new URL(discovery.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', app.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', scopesFor(discovery));
      if (state !== undefined) url.searchParams.set('state', state);
      return url.href;
    },

    async exchangeCode(client, code, redirectUri) {
      const app = appClient(client);
      const tokenEndpoint = await endpoint(app.issuer, 'token_endpoint');
      const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.clientId };
      return redeemGrant({ fetchImpl, tokenEndpoint, now: options.now }, form, 'code');
    },

    async refresh(client, refreshToken) {
      const app = appClient(client);
      const tokenEndpoint = await endpoint(app.issuer, 'token_endpoint');
      const form = { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.clientId };
      return redeemGrant({ fetchImpl, tokenEndpoint, now: options.now }, form, 'refresh');
    },

    findUser: async () => undefined,
  };
}
