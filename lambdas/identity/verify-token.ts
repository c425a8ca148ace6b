import { decodeJwt } from 'jose';
import type { z } from 'zod';
import type { VerifyResponse } from '#shared/contract/endpoints/identity.ts';
import type { TokenVerifier } from '#core/auth/jwt-verifier.ts';
import type { UserPrincipal } from '#core/auth/principal.ts';
import { HttpError } from '#core/errors.ts';

/**
 * Is this an id token we accept (issuer, audience, signature, expiry, claims)? Any token the verifier refuses is
 * `valid: false`, never an error: callers ask precisely because they do not know. Only a provider that cannot be
 * reached (503, the key set unreadable) is an error, since "false" would then be a lie.
 */
export async function verifyIdToken(tokens: TokenVerifier, idToken: string): Promise<z.input<typeof VerifyResponse>> {
  let principal: UserPrincipal;
  try {
    principal = await tokens.verify(idToken);
  } catch (error) {
    if (error instanceof HttpError && error.status >= 500) throw error;
    return { valid: false };
  }
  const { exp } = decodeJwt(idToken);
  return {
    valid: true,
    client: principal.client,
    user_reference: principal.subject,
    ...(typeof exp === 'number' ? { expires_at: new Date(exp * 1000).toISOString() } : {}),
  };
}
