import * as z from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { DateTimeIso, OAuth2Code, queryInt, text } from '../fields.ts';
import { AccountMetadata, UserProfile } from '../entities/account.ts';
import { TermsStatus, TokenExchangeResponse, UrlResponse, paginated } from '../entities/common.ts';
import { Staff } from '../entities/licences.ts';
import { listQuery } from './query.ts';

/**
 * Token exchange query: either an OAuth2 `code` with the `redirect_uri` it was issued for, or a `refresh_token`.
 */
export const ExchangeQuery = z
  .strictObject({
    code: OAuth2Code.optional(),
    redirect_uri: z.url({ error: 'Must be a valid URL' }).optional(),
    refresh_token: text(1, 8192).optional(),
  })
  .superRefine((query, ctx) => {
    const hasCode = query.code !== undefined;
    const hasRefresh = query.refresh_token !== undefined;
    if (hasCode === hasRefresh) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'Provide either code with redirect_uri, or refresh_token' });
    } else if (hasCode && query.redirect_uri === undefined) {
      ctx.addIssue({ code: 'custom', path: ['redirect_uri'], message: 'The redirect_uri field is required.' });
    }
  });

/** Sign-in URL query: a local development port to return to (the hosted sign-in page redirects back to it). */
export const UrlQuery = z.strictObject({ local_port: queryInt(1, 65535).optional() });

/** Token verification (internal, no auth): is this id token one we issued and still valid? */
export const VerifyRequest = z.strictObject({ id_token: text(1, 8192) });
export const VerifyResponse = z.object({
  valid: z.boolean(),
  client: z.string().optional(),
  user_reference: z.string().optional(),
  expires_at: z.string().optional(),
});

/**
 * Accepting the terms of use names the version accepted (the `valid_from` that `GET terms` showed), so a page left
 * open across a change of terms cannot accept terms its user never saw.
 */
export const AcceptTermsRequest = z.strictObject({ valid_from: DateTimeIso });

export const identityEndpoints = [
  defineEndpoint({
    id: 'admin.identity.url',
    surface: 'admin',
    method: 'GET',
    path: '/url',
    auth: 'public',
    action: 'identity:GetSignInUrl',
    group: 'identity',
    summary: 'The identity provider sign-in URL for this client.',
    query: UrlQuery,
    response: UrlResponse,
  }),
  defineEndpoint({
    id: 'admin.identity.exchange',
    surface: 'admin',
    method: 'GET',
    path: '/exchange',
    auth: 'public',
    action: 'identity:Exchange',
    group: 'identity',
    summary: 'Exchange an OAuth2 code or a refresh token for tokens.',
    query: ExchangeQuery,
    response: TokenExchangeResponse,
  }),
  defineEndpoint({
    id: 'admin.account.metadata',
    surface: 'admin',
    method: 'GET',
    path: '/account/metadata',
    auth: 'public',
    action: 'account:ReadMetadata',
    group: 'identity',
    summary: 'Public facts about the client the sign-in page needs.',
    response: AccountMetadata,
  }),
  defineEndpoint({
    id: 'admin.profile.get',
    surface: 'admin',
    method: 'GET',
    path: '/profile',
    auth: 'user',
    action: 'profile:Read',
    group: 'identity',
    summary: "The signed-in user's profile: actions, groups, payload types, roles.",
    response: UserProfile,
  }),
  // Not in the spec's endpoint list: the portal's terms guard needs them (docs/decisions.md, "Terms of use").
  defineEndpoint({
    id: 'admin.terms.get',
    surface: 'admin',
    method: 'GET',
    path: '/terms',
    auth: 'user',
    action: 'profile:Read',
    group: 'identity',
    summary: 'The current terms of use, and whether the signed-in user has accepted them.',
    response: TermsStatus,
  }),
  defineEndpoint({
    id: 'admin.terms.accept',
    surface: 'admin',
    method: 'PUT',
    path: '/terms',
    auth: 'user',
    action: 'profile:AcceptTerms',
    group: 'identity',
    summary: 'Accept the current terms of use (idempotent; 409 when valid_from names other terms).',
    body: AcceptTermsRequest,
    response: TermsStatus,
  }),
  defineEndpoint({
    id: 'internal.identity.exchange',
    surface: 'internal',
    method: 'GET',
    path: '/exchange',
    auth: 'public',
    action: 'internal:Exchange',
    group: 'identity',
    summary: 'Exchange an OAuth2 code or refresh token for provider staff tokens.',
    query: ExchangeQuery,
    response: TokenExchangeResponse,
  }),
  defineEndpoint({
    id: 'internal.identity.verify',
    surface: 'internal',
    method: 'POST',
    path: '/verify',
    auth: 'public',
    action: 'internal:Verify',
    group: 'identity',
    summary: 'Verify an id token.',
    body: VerifyRequest,
    response: VerifyResponse,
  }),
  defineEndpoint({
    id: 'internal.staff.list',
    surface: 'internal',
    method: 'GET',
    path: '/staff',
    auth: 'user',
    action: 'internal:ListStaff',
    group: 'identity',
    summary: 'Provider staff members.',
    query: listQuery({}),
    response: paginated(Staff),
  }),
] as const;
