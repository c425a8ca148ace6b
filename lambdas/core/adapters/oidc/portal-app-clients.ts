import * as z from 'zod';
import { ADMIN_CLIENT } from '../../auth/principal.ts';
import { InternalError } from '../../errors.ts';
import type { PortalAppClient } from '../../ports/identity-directory.ts';

const optionalText = z.string().trim().min(1).optional().catch(undefined);

/**
 * The identity variables only the `identity` function receives (the CDK api stack sets them; lambdas/core/config.ts
 * declares them `where-read`, so every other function still starts without them). Parsed leniently: a missing or
 * empty one fails when it is needed, naming it, not at start.
 */
export const IdentitySettings = z.object({
  VERITY_MODE: z.enum(['local', 'aws']).catch('aws'),
  /** Tenant pool issuer (the local provider's issuer in local mode). */
  OIDC_ISSUER: z.string().min(1),
  /** Staff pool issuer; in local mode staff use the same provider as tenants. */
  STAFF_OIDC_ISSUER: optionalText,
  /** AWS: the one Cognito app client all tenants share, and its pool. */
  TENANT_CLIENT_ID: optionalText,
  TENANT_USER_POOL_ID: optionalText,
  /** AWS: the staff pool's app client and pool. */
  STAFF_CLIENT_ID: optionalText,
  STAFF_USER_POOL_ID: optionalText,
});
export type IdentitySettings = z.infer<typeof IdentitySettings>;

/** The identity settings of a configuration (lambdas/core/config.ts), with the issuer the directory trusts. */
export function identitySettingsFrom(config: Record<string, unknown>, issuer: string): IdentitySettings {
  return IdentitySettings.parse({ ...config, OIDC_ISSUER: issuer });
}

/**
 * THE mapping from a client to the portal app client it signs in with (one place, so sign-in URL, code exchange
 * and refresh cannot disagree):
 * - local mode: the local provider has one public client per tenant, `verity-<client>-portal`, and one for staff,
 *   `verity-admin-portal`, all under `OIDC_ISSUER`; a client only signs in its own accounts.
 * - AWS: every tenant shares the tenant pool's app client (`TENANT_CLIENT_ID`, pool `TENANT_USER_POOL_ID`, issuer
 *   `OIDC_ISSUER`); the tenant is the user's `custom:client` attribute, checked after the exchange. Staff (client
 *   `admin`) use the staff pool (`STAFF_CLIENT_ID`, `STAFF_USER_POOL_ID`, issuer `STAFF_OIDC_ISSUER`).
 * A missing AWS variable is a deployment fault: 500, naming the variable in the log only.
 */
export function portalAppClient(client: string, settings: IdentitySettings): PortalAppClient {
  const staff = client === ADMIN_CLIENT;
  if (settings.VERITY_MODE === 'local') {
    return { clientId: `verity-${client}-portal`, issuer: settings.STAFF_OIDC_ISSUER && staff ? settings.STAFF_OIDC_ISSUER : settings.OIDC_ISSUER };
  }
  const clientId = staff ? settings.STAFF_CLIENT_ID : settings.TENANT_CLIENT_ID;
  const issuer = staff ? settings.STAFF_OIDC_ISSUER : settings.OIDC_ISSUER;
  const userPoolId = staff ? settings.STAFF_USER_POOL_ID : settings.TENANT_USER_POOL_ID;
  if (clientId === undefined || issuer === undefined) {
    const missing = staff ? ['STAFF_CLIENT_ID', 'STAFF_OIDC_ISSUER'] : ['TENANT_CLIENT_ID'];
    throw new InternalError(`Identity not configured: ${missing.join(' or ')} missing`);
  }
  return { clientId, issuer, ...(userPoolId === undefined ? {} : { userPoolId }) };
}
