import { decodeJwt } from 'jose';
import type { Endpoint } from '#shared/contract/endpoint.ts';
import { verifyClientAppToken } from '../auth/client-app-tokens.ts';
import type { DeviceTokenVerifier } from '../auth/device-token.ts';
import type { TokenVerifier } from '../auth/jwt-verifier.ts';
import { ADMIN_CLIENT, type Principal } from '../auth/principal.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import type { TableStore } from '../ports/table-store.ts';

export interface Verifiers {
  tokens: TokenVerifier;
  deviceTokens: DeviceTokenVerifier;
  /** Where a tenant's client apps (their issuers, audiences and key sets) are configured. */
  table: TableStore;
}

/** `Bearer <token>`, or support mode's `internal-<request_reference> <token>` (DESIGN.md §4). */
const AUTHORIZATION = /^(?:(bearer)|internal-([0-9A-Za-z]{1,64})) +([A-Za-z0-9\-_.~+/=]+)$/i;

function readAuthorization(headers: Record<string, string | undefined>) {
  const value = headers['authorization'];
  if (value === undefined || value.trim() === '') throw new UnauthorizedError('Authorization required');
  const match = AUTHORIZATION.exec(value.trim());
  if (match === null) throw new UnauthorizedError('Authorization header malformed');
  // Request references are ULIDs, stored upper-case; Crockford base32 is case-insensitive, so accept either.
  return { supportReference: match[2]?.toUpperCase(), token: match[3] as string };
}

function unverifiedIssuer(token: string): string | undefined {
  try {
    const issuer = decodeJwt(token).iss;
    return typeof issuer === 'string' ? issuer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Says who is calling, by the endpoint's auth kind: nobody for public endpoints, a verified portal id token for
 * `user`, a portal id token or a token of one of the tenant's client apps for `client-app`, a device token for
 * `device`. Throws UnauthorizedError (401).
 */
export async function authenticate(
  endpoint: Endpoint,
  headers: Record<string, string | undefined>,
  verifiers: Verifiers,
  client?: string,
): Promise<Principal | undefined> {
  switch (endpoint.auth) {
    case 'public':
      return undefined;
    case 'device': {
      const { token, supportReference } = readAuthorization(headers);
      if (supportReference !== undefined) throw new UnauthorizedError('Authorization header malformed');
      return verifiers.deviceTokens.verify(token);
    }
    case 'user':
    case 'client-app': {
      const { token, supportReference } = readAuthorization(headers);
      // The unverified `iss` only picks the verifier; each verifier then checks issuer, signature and audience.
      const portal = verifiers.tokens.issuer;
      const claimed = portal === undefined ? undefined : unverifiedIssuer(token);
      if (endpoint.auth === 'client-app' && supportReference === undefined && client !== undefined && portal !== undefined) {
        if (claimed !== undefined && claimed !== portal) return verifyClientAppToken(token, client, verifiers.table);
      }
      // A portal-only endpoint (the admin surface) given another issuer's token, such as a client app's: say so, rather
      // than the "signing key unknown" checking it against the portal's key set would answer.
      if (endpoint.auth === 'user' && claimed !== undefined && claimed !== portal) throw new UnauthorizedError('Token issuer invalid: this endpoint takes portal sign-in only');
      const principal = await verifiers.tokens.verify(token);
      return supportReference === undefined ? principal : { ...principal, supportReference };
    }
  }
}

/**
 * The tenant boundary: a tenant token acts only in its own tenant (the path's `{client}`), and the internal console
 * is for staff (client `admin`) only. Support mode (`internal-<reference>`) is for staff on a tenant path; whether
 * the request is approved and unexpired is checked when access is resolved.
 */
export function checkTenant(endpoint: Endpoint, principal: Principal | undefined, client: string | undefined): void {
  if (principal === undefined || principal.kind === 'device') return;
  if (principal.kind === 'user' && principal.supportReference !== undefined) {
    if (principal.client !== ADMIN_CLIENT) throw new ForbiddenError('Support access is for provider staff only');
    if (endpoint.surface === 'internal' || client === undefined) {
      throw new ForbiddenError('Support access applies to tenant endpoints only');
    }
    return;
  }
  if (endpoint.surface === 'internal') {
    if (principal.client !== ADMIN_CLIENT) throw new ForbiddenError('Staff only');
    return;
  }
  if (client !== undefined && principal.client !== client) throw new ForbiddenError('Token is not valid for this client');
}
