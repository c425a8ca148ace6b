import { discoverIssuer, type FetchLike } from '../../auth/oidc-discovery.ts';
import type { IdentityDirectory } from '../../ports/identity-directory.ts';

/**
 * IdentityDirectory over plain OIDC: Cognito and the local provider share this code path (DESIGN.md §1).
 * User lookup needs the provider's admin API (Cognito AdminGetUser, the local provider's account store); it arrives
 * with the user-management endpoints, so for now no user is found.
 */
export function createOidcIdentityDirectory(options: { issuer: string; fetch?: FetchLike }): IdentityDirectory {
  return {
    issuer: options.issuer,
    discovery: () => discoverIssuer(options.issuer, options.fetch),
    findUser: async () => undefined,
  };
}
