import * as z from 'zod';
import { AppReference, CidrRanges, GroupReference, HttpsUrl, OidcAudience, RoleReference } from '../fields.ts';
import { APP_ROLES_MAX } from '../bounds.ts';
import { itemsAtLeast, itemsBetween } from '../messages.ts';
import { Audited } from './common.ts';

/** The identity provider a client app's tokens come from. */
export const OidcConfig = z.strictObject({ issuer: HttpsUrl, audience: OidcAudience, jwks_uri: HttpsUrl });
export type OidcConfig = z.infer<typeof OidcConfig>;

/** Machine access for a tenant: its own group, roles and CIDR ranges; tokens from its own OIDC issuer. */
export const ClientAppConfiguration = Audited.extend({
  app_reference: AppReference,
  oidc_config: z.object({ issuer: z.string(), audience: z.string(), jwks_uri: z.string() }),
  group: GroupReference.optional(),
  roles: z.array(RoleReference).default([]),
  cidr_ranges: CidrRanges.default([]),
});
export type ClientAppConfiguration = z.infer<typeof ClientAppConfiguration>;

/** Create or replace a client app (the reference comes from the path). */
export const ClientAppRequest = z.strictObject({
  /** The path's app_reference, which the spec's entity carries: may be repeated here, refused when it differs. */
  app_reference: AppReference.optional(),
  oidc_config: OidcConfig,
  group: GroupReference.optional(),
  roles: z
    .array(RoleReference)
    .min(1, { error: itemsAtLeast(1) })
    .max(APP_ROLES_MAX, { error: itemsBetween(1, APP_ROLES_MAX) }),
  cidr_ranges: CidrRanges.default([]),
});
export type ClientAppRequest = z.infer<typeof ClientAppRequest>;

/** The Cognito variant: an app client in the tenant's user pool. */
export const CognitoClientApp = z.object({
  client: z.string(),
  user_pool_id: z.string(),
  client_id: z.string(),
  account_id: z.string(),
});
export type CognitoClientApp = z.infer<typeof CognitoClientApp>;
