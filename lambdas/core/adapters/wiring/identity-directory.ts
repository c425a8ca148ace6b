import type { PortAdapter } from '../../dependencies.ts';
import { createOidcIdentityDirectory } from '../oidc/oidc-identity-directory.ts';

/** The portal's identity provider (Cognito in AWS, the local OIDC provider locally), over OIDC in both modes. */
export const identityDirectoryAdapter: PortAdapter<'identity'> = {
  port: 'identity',
  build: ({ config }) => createOidcIdentityDirectory({ issuer: config.OIDC_ISSUER }),
};
