import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import type { AccessContext } from '#core/auth/access/access-context.ts';
import { ADMIN_CLIENT, type UserPrincipal } from '#core/auth/principal.ts';
import type { Dependencies } from '#core/dependencies.ts';
import { InternalError } from '#core/errors.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { implement, type RouteInput } from '#core/http/route.ts';
import { accountMetadata } from './account-metadata.ts';
import { profileOf } from './profile.ts';
import { portalUrlFrom } from './redirect-uri.ts';
import { exchangeTokens, signInUrl, type SignInDependencies } from './sign-in.ts';
import { listStaff } from './staff.ts';
import { acceptTerms, actingUser, termsStatus } from './terms.ts';
import { verifyIdToken } from './verify-token.ts';

/** The group's endpoints in the contract's order (the tuple types each route); checked by id at load. */
const [urlGet, exchangeGet, metadataGet, profileGet, termsGet, termsAccept, internalExchange, verifyPost, staffList] = identityEndpoints;

const expected: Array<[{ id: string }, string]> = [
  [urlGet, 'admin.identity.url'],
  [exchangeGet, 'admin.identity.exchange'],
  [metadataGet, 'admin.account.metadata'],
  [profileGet, 'admin.profile.get'],
  [termsGet, 'admin.terms.get'],
  [termsAccept, 'admin.terms.accept'],
  [internalExchange, 'internal.identity.exchange'],
  [verifyPost, 'internal.identity.verify'],
  [staffList, 'internal.staff.list'],
];
for (const [endpoint, id] of expected) {
  if (endpoint.id !== id) throw new Error(`identity handler expected ${id}, found ${endpoint.id}`);
}

/** The admin-surface routes all have `{client}` in their path (checked by the router). */
function clientOf(input: Pick<RouteInput, 'client'>): string {
  if (input.client === undefined) throw new InternalError('identity route without a path client');
  return input.client;
}

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
  endpoints: identityEndpoints,
  routes: {
    [urlGet.id]: implement(urlGet, (input, deps) =>
      signInUrl(signInDependencies(deps), clientOf(input), { localPort: input.query.local_port, portalUrl: portalUrlFrom() }),
    ),
    [exchangeGet.id]: implement(exchangeGet, (input, deps) => exchangeTokens(signInDependencies(deps), clientOf(input), input.query)),
    [metadataGet.id]: implement(metadataGet, (input, deps) => accountMetadata(deps, clientOf(input))),
    [profileGet.id]: implement(profileGet, async (input, deps) => {
      if (input.principal?.kind !== 'user') throw new InternalError('profile without a user principal');
      return profileOf(deps, input.principal, clientOf(input), accessOf(input));
    }),
    [termsGet.id]: implement(termsGet, (input, deps) => termsStatus(deps, clientOf(input), actingUser(userOf(input), accessOf(input)))),
    [termsAccept.id]: implement(termsAccept, (input, deps) =>
      acceptTerms(deps, clientOf(input), actingUser(userOf(input), accessOf(input)), input.body.valid_from, { requestId: input.requestId }),
    ),
    // Staff sign in through the staff portal's app client: the internal surface has no `{client}`.
    [internalExchange.id]: implement(internalExchange, (input, deps) => exchangeTokens(signInDependencies(deps), ADMIN_CLIENT, input.query)),
    [verifyPost.id]: implement(verifyPost, (input, deps) => verifyIdToken(deps.tokens, input.body.id_token)),
    [staffList.id]: implement(staffList, (input, deps) => listStaff(deps, input.query)),
  },
});
