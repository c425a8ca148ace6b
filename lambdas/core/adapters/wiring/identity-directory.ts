import type { PortAdapter } from '../../dependencies.ts';
import { createOidcIdentityDirectory } from '../oidc/oidc-identity-directory.ts';
import { identitySettingsFrom } from '../oidc/portal-app-clients.ts';

/** The portal's identity provider (Cognito in AWS, the local OIDC provider locally), over OIDC in both modes. */
export const identityDirectoryAdapter: PortAdapter<'identity'> = {
  port: 'identity',
  build: ({ config }) => createOidcIdentityDirectory({ issuer: config.OIDC_ISSUER, settings: identitySettingsFrom(config, config.OIDC_ISSUER) }),
};
