import { decodeJwt } from 'jose';
import type { z } from 'zod';
import type { ExchangeQuery } from '#shared/contract/endpoints/identity.ts';
import type { TokenExchangeResponse, UrlResponse } from '#shared/contract/entities/common.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import { ForbiddenError, NotFoundError, ServiceUnavailableError, ValidationError } from '#core/errors.ts';
import type { IdentityDirectory, PortalTokens } from '#core/ports/identity-directory.ts';
import type { TableStore } from '#core/ports/table-store.ts';
import { readAccount, type AccountItem } from '#core/store/entities/account.ts';
import { keys } from '#core/store/keys.ts';
import { signInRedirectUri } from './redirect-uri.ts';

export interface SignInDependencies {
  table: TableStore;
  identity: IdentityDirectory;
  mode: 'local' | 'aws';
}

/**
 * The tenant's account item; 404 `Unknown client` when there is none. Staff (`admin`) is the provider itself, not
 * a tenant: it has no account item and is always known.
 */
export async function findKnownClient(table: TableStore, client: string): Promise<AccountItem | undefined> {
  if (client === ADMIN_CLIENT) return undefined;
  const account = await table.get(keys.account.item(client));
  if (account === undefined) throw new NotFoundError('Unknown client');
  return readAccount(account);
}

/** The provider's sign-in URL for `client`, returning to the portal's `/sign-in` (or a local portal's port). */
export async function signInUrl(
  deps: SignInDependencies,
  client: string,
  options: { localPort?: number; portalUrl: string | undefined },
): Promise<UrlResponse> {
  await findKnownClient(deps.table, client);
  const app = deps.identity.appClient(client);
  const redirectUri = signInRedirectUri({ mode: deps.mode, portalUrl: options.portalUrl, localPort: options.localPort });
  const url = await deps.identity.signInUrl(client, redirectUri);
  return { url, client_id: app.clientId, ...(app.userPoolId === undefined ? {} : { user_pool_id: app.userPoolId }) };
}

/**
 * Redeems a sign-in code (with the redirect URI it was issued for) or a refresh token for `client`'s tokens.
 * The id token must belong to `client`: in AWS all tenants share one app client, so a user of another tenant could
 * otherwise sign in on this tenant's page and carry the other tenant's token back.
 */
export async function exchangeTokens(
  deps: SignInDependencies,
  client: string,
  query: z.output<typeof ExchangeQuery>,
): Promise<TokenExchangeResponse> {
  await findKnownClient(deps.table, client);
  let tokens: PortalTokens;
  if (query.code !== undefined && query.redirect_uri !== undefined) {
    tokens = await deps.identity.exchangeCode(client, query.code, query.redirect_uri);
  } else if (query.refresh_token !== undefined) {
    tokens = await deps.identity.refresh(client, query.refresh_token);
  } else {
    // The contract already refuses this; kept so the service is safe on its own.
    throw new ValidationError(['query.code: Provide either code with redirect_uri, or refresh_token']);
  }
  assertTokenOfClient(tokens.idToken, client);
  // Cognito does not rotate refresh tokens: then the one presented stays the one to use.
  const refreshToken = tokens.refreshToken ?? query.refresh_token;
  return { id_token: tokens.idToken, expires_in: tokens.expiresIn, ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }) };
}

/**
 * Reads `custom:client` of an id token fresh from the token endpoint (TLS-authenticated back channel, so no
 * signature check is needed, OIDC Core §3.1.3.7). Staff pool tokens may carry no client attribute at all.
 */
function assertTokenOfClient(idToken: string, client: string): void {
  let claim: unknown;
  try {
    claim = decodeJwt(idToken)['custom:client'];
  } catch (cause) {
    throw new ServiceUnavailableError('Token endpoint answered an unreadable id token', { cause });
  }
  if (claim === undefined && client === ADMIN_CLIENT) return;
  if (claim !== client) throw new ForbiddenError('This account belongs to another client');
}
