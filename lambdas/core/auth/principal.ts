/** Who is calling. Built by authentication, read by the tenant check and by services. */

/** A portal user (tenant user, or provider staff when `client` is `admin`), from an id token. */
export interface UserPrincipal {
  kind: 'user';
  /** The token's `sub`: the portal user reference, how records and the activity trail name the user (./actor.ts). */
  subject: string;
  /** Shown to people (a sign-in form, an alert message); never how a record names the user, never logged. */
  email: string | undefined;
  /** The person's name from the token (`given_name` and `family_name`, else `name`): shown to people, as `email`. */
  name?: string | undefined;
  /** The tenant the user belongs to (claim `custom:client`); `admin` for provider staff. */
  client: string;
  /** Group claim (`cognito:groups`): role names the user holds. */
  groups: string[];
  /** The `iss` of the token that authenticated the call. */
  tokenIssuer: string;
  /** Set in support mode: the `internal-<reference>` authorization scheme's reference. */
  supportReference?: string;
}

/** A managed device, from a device token (issued by the device authentication exchange). */
export interface DevicePrincipal {
  kind: 'device';
  client: string;
  deviceReference: string;
}

/**
 * A tenant's client app (machine access), from a token of the app's own OIDC issuer (ClientAppConfiguration).
 * Carries the app's configured roles, group and CIDR ranges, read when its token was verified.
 */
export interface ClientAppPrincipal {
  kind: 'client-app';
  client: string;
  appReference: string;
  /** The token's `sub` (the app's identity at its issuer), or the app reference when absent. */
  subject: string;
  tokenIssuer: string;
  roles: string[];
  cidrRanges: string[];
  group?: string;
}

export type Principal = UserPrincipal | ClientAppPrincipal | DevicePrincipal;

/** The provider's own client: its users are staff (defined once in shared/, which the portal reads too). */
export { ADMIN_CLIENT } from '#shared/constants/limits.ts';

/** What may be logged about a principal: never a token, never an email. */
export function describePrincipal(principal: Principal | undefined): Record<string, string> | undefined {
  if (principal === undefined) return undefined;
  if (principal.kind === 'device') {
    return { kind: 'device', client: principal.client, device_reference: principal.deviceReference };
  }
  if (principal.kind === 'client-app') {
    return { kind: 'client-app', client: principal.client, app_reference: principal.appReference };
  }
  return {
    kind: 'user',
    client: principal.client,
    subject: principal.subject,
    ...(principal.supportReference ? { support_reference: principal.supportReference } : {}),
  };
}
