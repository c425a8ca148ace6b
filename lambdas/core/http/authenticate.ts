import type { Endpoint } from '#shared/contract/endpoint.ts';
import type { DeviceTokenVerifier } from '../auth/device-token.ts';
import type { TokenVerifier } from '../auth/jwt-verifier.ts';
import { ADMIN_CLIENT, type Principal } from '../auth/principal.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';

export interface Verifiers {
  tokens: TokenVerifier;
  deviceTokens: DeviceTokenVerifier;
}

/** `Bearer <token>`, or support mode's `internal-<request_reference> <token>` (DESIGN.md §4). */
const AUTHORIZATION = /^(?:(bearer)|internal-([0-9A-Za-z]{1,64})) +([A-Za-z0-9\-_.~+/=]+)$/i;

function readAuthorization(headers: Record<string, string | undefined>) {
  const value = headers['authorization'];
  if (value === undefined || value.trim() === '') throw new UnauthorizedError('Authorization required');
  const match = AUTHORIZATION.exec(value.trim());
  if (match === null) throw new UnauthorizedError('Authorization header malformed');
  return { supportReference: match[2], token: match[3] as string };
}

/**
 * Says who is calling, by the endpoint's auth kind: nobody for public endpoints, a verified id token for `user`
 * and `client-app`, a device token for `device`. Throws UnauthorizedError (401).
 */
export async function authenticate(
  endpoint: Endpoint,
  headers: Record<string, string | undefined>,
  verifiers: Verifiers,
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
      // Tenant client apps' own issuers (ClientAppConfiguration) join here when client apps are built.
      const { token, supportReference } = readAuthorization(headers);
      const principal = await verifiers.tokens.verify(token);
      return supportReference === undefined ? principal : { ...principal, supportReference };
    }
  }
}

/**
 * The tenant boundary: a tenant token acts only in its own tenant (the path's `{client}`), and the internal console
 * is for staff (client `admin`) only. Support mode (staff acting in a tenant) is refused until it is built.
 */
export function checkTenant(endpoint: Endpoint, principal: Principal | undefined, client: string | undefined): void {
  if (principal === undefined || principal.kind === 'device') return;
  if (principal.supportReference !== undefined) throw new ForbiddenError('Support access is not available yet');
  if (endpoint.surface === 'internal') {
    if (principal.client !== ADMIN_CLIENT) throw new ForbiddenError('Staff only');
    return;
  }
  if (client !== undefined && principal.client !== client) throw new ForbiddenError('Token is not valid for this client');
}
