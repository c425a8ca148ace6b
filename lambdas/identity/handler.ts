import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { ADMIN_CLIENT } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { identityDirectoryAdapter } from '#core/adapters/wiring/identity-directory.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, implementForTenant } from '#core/http/route.ts';
import { accountMetadata } from './account-metadata.ts';
import { profileOf } from './profile.ts';
import { exchangeTokens, signInUrl, type SignInDependencies } from './sign-in.ts';
import { listStaff } from './staff.ts';
import { acceptTerms, termsStatus } from './terms.ts';
import { verifyIdToken } from './verify-token.ts';
import { apiRecorders } from '../api-recorders.ts';

const urlGet = endpointOf(identityEndpoints, 'admin.identity.url');
const exchangeGet = endpointOf(identityEndpoints, 'admin.identity.exchange');
const metadataGet = endpointOf(identityEndpoints, 'admin.account.metadata');
const profileGet = endpointOf(identityEndpoints, 'admin.profile.get');
const termsGet = endpointOf(identityEndpoints, 'admin.terms.get');
const termsAccept = endpointOf(identityEndpoints, 'admin.terms.accept');
const internalExchange = endpointOf(identityEndpoints, 'internal.identity.exchange');
const verifyPost = endpointOf(identityEndpoints, 'internal.identity.verify');
const staffList = endpointOf(identityEndpoints, 'internal.staff.list');

function signInDependencies(deps: Dependencies): SignInDependencies {
  return { table: deps.table, identity: deps.identity, mode: deps.config.VERITY_MODE };
}

/**
 * Lambda entry of the `identity` group: sign-in URL and token exchange, account metadata, profile, terms of use,
 * verify, staff.
 */
export const handler = createApiHandler({
  group: 'identity',
  recorders: apiRecorders,
  endpoints: identityEndpoints,
  // Sign-in talks to the identity provider over OIDC; the rest is DynamoDB.
  dependencies: dependenciesWith(identityDirectoryAdapter),
  routes: {
    [urlGet.id]: implementForTenant(urlGet, (input, deps) =>
      signInUrl(signInDependencies(deps), input.client, { localPort: input.query.local_port, portalUrl: deps.config.PORTAL_URL }),
    ),
    [exchangeGet.id]: implementForTenant(exchangeGet, (input, deps) => exchangeTokens(signInDependencies(deps), input.client, input.query)),
    [metadataGet.id]: implementForTenant(metadataGet, (input, deps) => accountMetadata(deps, input.client)),
    [profileGet.id]: implementForTenant(profileGet, ({ caller }) => profileOf(caller)),
    [termsGet.id]: implementForTenant(termsGet, ({ caller }) => termsStatus(caller)),
    [termsAccept.id]: implementForTenant(termsAccept, ({ caller, body }) => acceptTerms(caller, body.valid_from)),
    // Staff sign in through the staff portal's app client: the internal surface has no `{client}`.
    [internalExchange.id]: implement(internalExchange, (input, deps) => exchangeTokens(signInDependencies(deps), ADMIN_CLIENT, input.query)),
    [verifyPost.id]: implement(verifyPost, (input, deps) => verifyIdToken(deps.tokens, input.body.id_token)),
    [staffList.id]: implement(staffList, (input, deps) => listStaff(deps, input.query)),
  },
});
