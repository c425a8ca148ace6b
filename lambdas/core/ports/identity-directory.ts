import type { OidcDiscovery } from '../auth/oidc-discovery.ts';

/** A portal user as the identity provider knows them. */
export interface DirectoryUser {
  subject: string;
  email: string | undefined;
  client: string;
  groups: string[];
  enabled: boolean;
}

/**
 * What the backend needs of the identity provider (Cognito in AWS, the local OIDC provider on one machine).
 * Both speak plain OIDC, so sign-in URLs and code exchange are built from the discovery document.
 */
export interface IdentityDirectory {
  /** The issuer every portal id token carries. */
  readonly issuer: string;
  /** The provider's discovery document (endpoints, JWKS URI). */
  discovery(): Promise<OidcDiscovery>;
  /** Looks a user up by subject; undefined when unknown. Admin user management arrives with its endpoints. */
  findUser(client: string, subject: string): Promise<DirectoryUser | undefined>;
}
