import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import * as z from 'zod';
import { HttpError, ServiceUnavailableError, UnauthorizedError } from '../errors.ts';
import { discoverIssuer, type FetchLike } from './oidc-discovery.ts';
import type { UserPrincipal } from './principal.ts';

/** Verifies a portal user's id token and says who it is. Throws UnauthorizedError with a short reason. */
export interface TokenVerifier {
  verify(token: string): Promise<UserPrincipal>;
  /** The portal issuer it accepts; a token of any other issuer may be a tenant client app's. */
  readonly issuer?: string;
}

export interface OidcTokenVerifierOptions {
  /** The only accepted `iss`. */
  issuer: string;
  /** Accepted `aud` values (portal app client ids). */
  audiences: readonly string[];
  /** Where signing keys come from. Default: the issuer's JWKS, found through its discovery document. */
  keySource?: JWTVerifyGetKey;
  /** Allowed clock skew for exp and nbf. */
  clockToleranceSeconds?: number;
  fetch?: FetchLike;
}

/** Longer than any real id token; refusing early keeps hostile megabyte headers away from the crypto. */
const MAX_TOKEN_LENGTH = 16 * 1024;

const jwksByIssuer = new Map<string, JWTVerifyGetKey>();

/** The issuer's remote key set, built once per issuer per process (jose caches and rate-limits refetches). */
function remoteKeySource(issuer: string, fetchImpl: FetchLike | undefined): JWTVerifyGetKey {
  return async (header, token) => {
    let keySet = jwksByIssuer.get(issuer);
    if (keySet === undefined) {
      const discovery = await discoverIssuer(issuer, fetchImpl);
      keySet = createRemoteJWKSet(new URL(discovery.jwks_uri));
      jwksByIssuer.set(issuer, keySet);
    }
    return keySet(header, token);
  };
}

/** Claims a portal id token must carry beyond the registered ones jose checks. */
const IdTokenClaims = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
  'custom:client': z.string().min(1),
  'cognito:groups': z.array(z.string()).optional(),
  // Cognito marks id tokens `id` and access tokens `access`; other providers omit the claim.
  token_use: z.literal('id').optional(),
});

/** The person's name as the token gives it: given and family names, else the `name` claim; absent when neither. */
function nameOf(claims: { given_name?: string | undefined; family_name?: string | undefined; name?: string | undefined }): { name?: string } {
  const parts = [claims.given_name, claims.family_name].map((part) => part?.trim() ?? '').filter((part) => part.length > 0);
  const name = parts.length > 0 ? parts.join(' ') : claims.name?.trim();
  return name === undefined || name.length === 0 ? {} : { name: name.slice(0, 255) };
}

/** jose error codes -> the short reason a 401 gives. */
const REASONS: Record<string, string> = {
  ERR_JWT_EXPIRED: 'Token expired',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'Token signature invalid',
  ERR_JOSE_ALG_NOT_ALLOWED: 'Token algorithm not allowed',
  ERR_JOSE_NOT_SUPPORTED: 'Token algorithm not allowed',
  ERR_JWS_INVALID: 'Token malformed',
  ERR_JWT_INVALID: 'Token malformed',
  ERR_JWKS_NO_MATCHING_KEY: 'Token signing key unknown',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'Token signing key ambiguous',
  ERR_JWK_INVALID: 'Token signing key unknown',
};

const CLAIM_REASONS: Record<string, string> = {
  iss: 'Token issuer invalid',
  aud: 'Token audience invalid',
  nbf: 'Token not yet valid',
  exp: 'Token expired',
  iat: 'Token issued-at invalid',
};

/** Maps a jose failure to the 401 (caller's fault) or 503 (identity provider's fault) it deserves. */
export function reasonFor(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    const claim = String((error as { claim?: unknown }).claim);
    return new UnauthorizedError(CLAIM_REASONS[claim] ?? `Token claim invalid: ${claim}`);
  }
  if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JWKS_INVALID') {
    // The key set could not be read: the caller is not at fault, the identity provider is.
    return new ServiceUnavailableError('JWKS unavailable', { cause: error });
  }
  if (typeof code === 'string' && REASONS[code]) return new UnauthorizedError(REASONS[code]);
  // ERR_JOSE_GENERIC is jose's "JWKS answered non-200"; errors without a jose code are network failures of fetch.
  if (typeof code !== 'string' || code === 'ERR_JOSE_GENERIC') {
    return new ServiceUnavailableError('Token verification unavailable', { cause: error });
  }
  return new UnauthorizedError('Token invalid');
}

/**
 * Verifies id tokens from the one configured OIDC issuer (Cognito in AWS, the local provider on one machine):
 * RS256 only (so `alg: none` and HMAC tokens are refused whatever their header says), exact issuer, audience in the
 * accepted list, exp required, exp and nbf checked with a small tolerance.
 */
export function createOidcTokenVerifier(options: OidcTokenVerifierOptions): TokenVerifier {
  const keySource = options.keySource ?? remoteKeySource(options.issuer, options.fetch);
  return {
    issuer: options.issuer,
    async verify(token) {
      if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedError('Token malformed');
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keySource, {
          issuer: options.issuer,
          audience: [...options.audiences],
          algorithms: ['RS256'],
          clockTolerance: options.clockToleranceSeconds ?? 5,
          requiredClaims: ['exp', 'sub'],
        }));
      } catch (error) {
        throw reasonFor(error);
      }
      const claims = IdTokenClaims.safeParse(payload);
      if (!claims.success) {
        const claim = String(claims.error.issues[0]?.path[0] ?? 'claims');
        throw new UnauthorizedError(claim === 'token_use' ? 'Token is not an id token' : `Token claim invalid: ${claim}`);
      }
      return {
        kind: 'user',
        subject: claims.data.sub,
        email: claims.data.email,
        ...nameOf(claims.data),
        client: claims.data['custom:client'],
        groups: claims.data['cognito:groups'] ?? [],
        tokenIssuer: options.issuer,
      };
    },
  };
}

/** Forgets cached key sets (tests). */
export function clearKeySetCache(): void {
  jwksByIssuer.clear();
}
