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
 * The public OAuth2 app client a tenant's portal (or the staff portal, client `admin`) signs in with, and the
 * issuer behind it. Public facts: the sign-in page may show them.
 */
export interface PortalAppClient {
  /** The OAuth2 `client_id` (no secret: the portal is a public client). */
  clientId: string;
  /** The OIDC issuer whose discovery document names the authorize and token endpoints. */
  issuer: string;
  /** The Cognito user pool id, in AWS only. */
  userPoolId?: string;
}

/** What a successful code or refresh grant yields (the spec's token exchange response). */
export interface PortalTokens {
  idToken: string;
  /** Absent when the provider did not issue (or rotate) one. */
  refreshToken?: string;
  /** Seconds until the id token expires. */
  expiresIn: number;
}

/**
 * What the backend needs of the identity provider (Cognito in AWS, the local OIDC provider on one machine).
 * Both speak plain OIDC, so sign-in URLs and token grants are built from the discovery document; only the mapping
 * from a client to its app client differs.
 *
 * Failures: a grant the provider refuses (bad, used or expired code or refresh token) throws a 4xx HttpError with
 * a clear message; an unreachable or misbehaving provider throws ServiceUnavailableError (503).
 */
export interface IdentityDirectory {
  /** The issuer every tenant portal id token carries. */
  readonly issuer: string;
  /** The tenant issuer's discovery document (endpoints, JWKS URI). */
  discovery(): Promise<OidcDiscovery>;
  /** The app client `client` signs in with (`admin`: the staff portal's). */
  appClient(client: string): PortalAppClient;
  /**
   * The provider's authorize URL for the code flow: response_type=code, the scopes the provider supports of
   * `openid email profile offline_access`, the client's app client id, `redirectUri` and, when given, `state`.
   */
  signInUrl(client: string, redirectUri: string, state?: string): Promise<string>;
  /** Redeems an authorisation code at the token endpoint (form-encoded, public client, no secret). */
  exchangeCode(client: string, code: string, redirectUri: string): Promise<PortalTokens>;
  /** Redeems a refresh token at the token endpoint. */
  refresh(client: string, refreshToken: string): Promise<PortalTokens>;
  /** Looks a user up by subject; undefined when unknown. Admin user management arrives with its endpoints. */
  findUser(client: string, subject: string): Promise<DirectoryUser | undefined>;
}
