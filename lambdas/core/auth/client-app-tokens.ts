import { createRemoteJWKSet, customFetch, decodeJwt, jwtVerify, type FetchImplementation, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { processEgressCheck } from '../egress/egress-check.ts';
import type { EgressCheck } from '../egress/egress-policy.ts';
import { EgressRefusedError, pinnedGet } from '../egress/pinned-fetch.ts';
import type { ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { InternalError, UnauthorizedError } from '../errors.ts';
import type { TableStore } from '../ports/table-store.ts';
import { readClientApp } from '../store/entities/client-app.ts';
import { keys } from '../store/keys.ts';
import { reasonFor } from './jwt-verifier.ts';
import type { ClientAppPrincipal } from './principal.ts';

/** Longer than any real token; refusing early keeps hostile megabyte headers away from the crypto. */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** A tenant has a handful of apps; this bounds the reads a hostile token can cause. */
const MAX_APP_PAGES = 5;

/**
 * Remote key sets by issuer and jwks_uri, kept for the life of the process (jose caches keys and rate-limits
 * refetches). The issuer is part of the key because an address alone may come to serve another issuer's keys (an app
 * reconfigured, a host or port reused): those keys must not be checked against the first issuer's cached set, which
 * jose would not refetch within its cooldown.
 */
const keySets = new Map<string, JWTVerifyGetKey>();
const KEY_SET_LIMIT = 500;

function keySetFor(issuer: string, jwksUri: string): JWTVerifyGetKey {
  const cacheKey = `${issuer}\n${jwksUri}`;
  let keySet = keySets.get(cacheKey);
  if (keySet === undefined) {
    if (keySets.size >= KEY_SET_LIMIT) keySets.clear();
    // Every fetch of the key set goes through the egress policy: resolved and checked then, connected to the address
    // checked (docs/decisions.md "Egress"), so a jwks_uri naming or rebinding to a private address gets no request.
    const pinned = ((url: string, init: { signal?: AbortSignal; headers?: HeadersInit }) =>
      pinnedGet(url, egressForTests ?? processEgressCheck(), init)) as unknown as FetchImplementation;
    keySet = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 5000, [customFetch]: pinned });
    keySets.set(cacheKey, keySet);
  }
  return keySet;
}

/**
 * A 401 for a token that named a client app's issuer (or an unknown issuer in a tenant that has apps) and failed
 * verification: a security event (lambdas/alerts/security-events.ts). Expired tokens are routine, not this.
 */
export class ClientAppTokenRefusedError extends UnauthorizedError {
  constructor(
    reason: string,
    readonly issuer: string,
    readonly appReference: string | undefined,
  ) {
    super(reason);
  }
}

/** The 401 for a token of a client app last saved in support mode. */
export const SAVED_IN_SUPPORT_MODE = "Token issuer invalid: the client app was last saved in support mode; the tenant's administrator must save it again";

/** Reasons that are the clock's doing rather than a wrong or forged token. */
const ROUTINE_REASONS: ReadonlySet<string> = new Set(['Token expired', 'Token not yet valid']);

async function clientApps(table: TableStore, client: string): Promise<ClientAppConfiguration[]> {
  const apps: ClientAppConfiguration[] = [];
  let startKey: Record<string, string> | undefined;
  for (let page = 0; page < MAX_APP_PAGES; page += 1) {
    const result = await table.query({ ...keys.clientApp.list(client), ...(startKey ? { startKey } : {}) });
    for (const item of result.items) {
      try {
        apps.push(readClientApp(item));
      } catch (error) {
        // A malformed app is left out, as if it did not exist: its tokens are refused, the tenant's others still work.
        if (!(error instanceof InternalError)) throw error;
      }
    }
    startKey = result.lastKey;
    if (startKey === undefined) break;
  }
  return apps;
}

/**
 * Verifies a token from one of the tenant's client apps (spec point 6, DESIGN.md §6): the token's `iss` (read
 * unverified, only to pick the app) must be the issuer of one of the tenant's ClientAppConfiguration items; the
 * signature is then checked against that app's jwks_uri (RS256 only), with the exact issuer, the app's audience and
 * exp required. Anything else is a 401.
 */
export async function verifyClientAppToken(token: string, client: string, table: TableStore): Promise<ClientAppPrincipal> {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedError('Token malformed');
  let claimedIssuer: unknown;
  try {
    claimedIssuer = decodeJwt(token).iss;
  } catch {
    throw new UnauthorizedError('Token malformed');
  }
  if (typeof claimedIssuer !== 'string' || claimedIssuer.length === 0) throw new UnauthorizedError('Token issuer invalid');
  const apps = await clientApps(table, client);
  const app = apps.find((candidate) => candidate.oidc_config.issuer === claimedIssuer);
  // A tenant without apps expects no app tokens: a stray issuer there is noise, not a security event.
  if (app === undefined && apps.length === 0) throw new UnauthorizedError('Token issuer invalid');
  if (app === undefined) throw new ClientAppTokenRefusedError('Token issuer invalid', claimedIssuer, undefined);
  if (!URL.canParse(app.oidc_config.jwks_uri)) throw new ClientAppTokenRefusedError('Token issuer invalid', claimedIssuer, app.app_reference);
  // Support mode can no longer save an app (shared/contract/support-mode.ts); one saved there before that rule would
  // outlive its grant, so it is trusted with nothing, its key set not even fetched, until the tenant saves it again.
  if (app.updated_by_actor?.support_request !== undefined) {
    throw new ClientAppTokenRefusedError(SAVED_IN_SUPPORT_MODE, claimedIssuer, app.app_reference);
  }

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySetFor(app.oidc_config.issuer, app.oidc_config.jwks_uri), {
      issuer: app.oidc_config.issuer,
      audience: app.oidc_config.audience,
      algorithms: ['RS256'],
      clockTolerance: 5,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    // The app's key set lies at an address the egress policy refuses: the token cannot be verified, and trying was a
    // security event (the app was saved with a public address; its name now resolves elsewhere, or it was written in).
    if (error instanceof EgressRefusedError) throw new ClientAppTokenRefusedError('Token issuer invalid', claimedIssuer, app.app_reference);
    const refusal = reasonFor(error);
    // 503s (the app's key set unreachable) and clock trouble are not the token's fault.
    if (refusal instanceof UnauthorizedError && !ROUTINE_REASONS.has(refusal.message)) {
      throw new ClientAppTokenRefusedError(refusal.message, claimedIssuer, app.app_reference);
    }
    throw refusal;
  }
  return {
    kind: 'client-app',
    client,
    appReference: app.app_reference,
    subject: typeof payload.sub === 'string' && payload.sub.length > 0 ? payload.sub : app.app_reference,
    tokenIssuer: app.oidc_config.issuer,
    roles: [...app.roles],
    cidrRanges: [...app.cidr_ranges],
    ...(app.group === undefined ? {} : { group: app.group }),
  };
}

/** Forgets cached key sets (tests). */
export function clearClientAppKeySets(): void {
  keySets.clear();
}

let egressForTests: EgressCheck | undefined;

/** Replaces the process's egress check (unit tests, which have no configuration to read EGRESS_ALLOW from). */
export function useClientAppEgressCheck(check: EgressCheck | undefined): void {
  egressForTests = check;
}
