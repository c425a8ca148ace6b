import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import type { AccessContext } from '#core/auth/access/access-context.ts';
import { ADMIN_CLIENT, type UserPrincipal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { InternalError } from '#core/errors.ts';
import { identityDirectoryAdapter } from '#core/adapters/wiring/identity-directory.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, implementForTenant, type RouteInput } from '#core/http/route.ts';
import { accountMetadata } from './account-metadata.ts';
import { profileOf } from './profile.ts';
import { exchangeTokens, signInUrl, type SignInDependencies } from './sign-in.ts';
import { listStaff } from './staff.ts';
import { acceptTerms, actingUser, termsStatus } from './terms.ts';
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

/** The access context the HTTP stack resolves for authenticated calls; its absence there is our bug (500). */
function accessOf(input: Pick<RouteInput, 'access'>): AccessContext {
  if (input.access === undefined) throw new InternalError('No access context on an authenticated route');
  return input.access;
}

/** The signed-in portal user of a `user` route (client apps never reach one); its absence is our bug (500). */
function userOf(input: Pick<RouteInput, 'principal'>): UserPrincipal {
  if (input.principal?.kind !== 'user') throw new InternalError('user route without a user principal');
  return input.principal;
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
    [profileGet.id]: implementForTenant(profileGet, async (input, deps) => {
      if (input.principal?.kind !== 'user') throw new InternalError('profile without a user principal');
      return profileOf(deps, input.principal, input.client, accessOf(input));
    }),
    [termsGet.id]: implementForTenant(termsGet, (input, deps) => termsStatus(deps, input.client, actingUser(userOf(input), accessOf(input)))),
    [termsAccept.id]: implementForTenant(termsAccept, (input, deps) =>
      acceptTerms(deps, input.client, actingUser(userOf(input), accessOf(input)), input.body.valid_from, { requestId: input.requestId }),
    ),
    // Staff sign in through the staff portal's app client: the internal surface has no `{client}`.
    [internalExchange.id]: implement(internalExchange, (input, deps) => exchangeTokens(signInDependencies(deps), ADMIN_CLIENT, input.query)),
    [verifyPost.id]: implement(verifyPost, (input, deps) => verifyIdToken(deps.tokens, input.body.id_token)),
    [staffList.id]: implement(staffList, (input, deps) => listStaff(deps, input.query)),
  },
});
