import { decodeJwt } from 'jose';
import * as z from 'zod';
import { InternalError, ServiceUnavailableError, UnauthorizedError, ValidationError, type HttpError } from '../../errors.ts';
import type { PortalTokens } from '../../ports/identity-directory.ts';

/** `fetch` as the token endpoint needs it (POST with a form body). */
export type FormFetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Which grant was refused decides the answer the caller sees. */
export type GrantKind = 'code' | 'refresh';

/** Longest token response read; a real one is a few kB. Guards against a hostile or broken endpoint. */
const MAX_RESPONSE_CHARS = 64 * 1024;
const TIMEOUT_MS = 10_000;

const TokenResponse = z.object({
  id_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  // RFC 6749 says a number; some providers send a numeric string.
  expires_in: z.coerce.number().int().positive().optional(),
});

const OAuthErrorResponse = z.object({ error: z.string(), error_description: z.string().optional() });

/** Errors that mean our own app client is misconfigured, not that the caller sent a bad code or token. */
const CONFIGURATION_ERRORS = new Set(['invalid_client', 'unauthorized_client', 'unsupported_grant_type']);

/** The answer to a grant the provider refused: the caller's code or refresh token is no good. */
export function grantRefused(kind: GrantKind): HttpError {
  return kind === 'code'
    ? new ValidationError(['query.code: Sign-in code is invalid or expired'])
    : new UnauthorizedError('Refresh token is invalid or expired');
}

/**
 * POSTs a grant to the token endpoint (form-encoded, public client: `client_id` in the form, no secret) and maps
 * the answer: tokens; a refused grant (4xx, `invalid_grant` and the like) -> grantRefused; our client misconfigured
 * (`invalid_client`, …) -> 500; the provider unreachable, slow, 5xx, 429 or answering nonsense -> 503.
 */
export async function redeemGrant(
  { fetchImpl, tokenEndpoint, now = Date.now }: { fetchImpl: FormFetch; tokenEndpoint: string; now?: (() => number) | undefined },
  form: Record<string, string>,
  kind: GrantKind,
): Promise<PortalTokens> {
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = await response.text();
  } catch (cause) {
    throw new ServiceUnavailableError('Identity provider unavailable', { cause });
  }
  const body = parseJson(text);

  if (response.status >= 400 && response.status < 500 && response.status !== 429) {
    const error = OAuthErrorResponse.safeParse(body);
    if (error.success && CONFIGURATION_ERRORS.has(error.data.error)) {
      throw new InternalError(`Token endpoint refused our app client: ${error.data.error}`, { cause: error.data.error_description });
    }
    throw grantRefused(kind);
  }
  if (!response.ok) throw new ServiceUnavailableError(`Token endpoint answered ${response.status}`);

  const tokens = TokenResponse.safeParse(body);
  if (!tokens.success) throw new ServiceUnavailableError('Token endpoint answered without an id token');
  const expiresIn = tokens.data.expires_in ?? secondsUntilExpiry(tokens.data.id_token, now());
  if (expiresIn === undefined) throw new ServiceUnavailableError('Token endpoint answered without an expiry');
  return {
    idToken: tokens.data.id_token,
    expiresIn,
    ...(tokens.data.refresh_token === undefined ? {} : { refreshToken: tokens.data.refresh_token }),
  };
}

function parseJson(text: string): unknown {
  if (text.length > MAX_RESPONSE_CHARS) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The id token's own `exp`, when the response leaves out `expires_in` (it came straight from the provider over TLS). */
function secondsUntilExpiry(idToken: string, nowMs: number): number | undefined {
  try {
    const { exp } = decodeJwt(idToken);
    return typeof exp === 'number' ? Math.max(0, Math.floor(exp - nowMs / 1000)) : undefined;
  } catch {
    return undefined;
  }
}
