import * as z from 'zod';
import { ServiceUnavailableError } from '../errors.ts';

/** The parts of an OpenID Provider's discovery document the backend uses. */
export const OidcDiscovery = z.object({
  issuer: z.string(),
  jwks_uri: z.url(),
  authorization_endpoint: z.url().optional(),
  token_endpoint: z.url().optional(),
  end_session_endpoint: z.url().optional(),
});
export type OidcDiscovery = z.infer<typeof OidcDiscovery>;

export type FetchLike = (input: string, init?: { signal?: AbortSignal }) => Promise<Response>;

const cache = new Map<string, Promise<OidcDiscovery>>();

/**
 * Fetches `<issuer>/.well-known/openid-configuration`, cached per issuer for the life of the process (a Lambda
 * container). A failed fetch is not cached, so the next request retries. The document's `issuer` must equal the
 * one asked for (OpenID Connect Discovery §4.3): a provider cannot vouch for another issuer.
 */
export function discoverIssuer(issuer: string, fetchImpl: FetchLike = fetch): Promise<OidcDiscovery> {
  let pending = cache.get(issuer);
  if (pending === undefined) {
    pending = load(issuer, fetchImpl);
    cache.set(issuer, pending);
    pending.catch(() => cache.delete(issuer));
  }
  return pending;
}

async function load(issuer: string, fetchImpl: FetchLike): Promise<OidcDiscovery> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch (cause) {
    throw new ServiceUnavailableError(`OIDC discovery failed for ${issuer}`, { cause });
  }
  const parsed = OidcDiscovery.safeParse(body);
  if (!parsed.success) throw new ServiceUnavailableError(`OIDC discovery document of ${issuer} is invalid`);
  if (parsed.data.issuer !== issuer) {
    throw new ServiceUnavailableError(`OIDC discovery of ${issuer} names another issuer: ${parsed.data.issuer}`);
  }
  return parsed.data;
}

/** Forgets cached discovery documents (tests). */
export function clearDiscoveryCache(): void {
  cache.clear();
}
