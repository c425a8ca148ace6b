import type { Endpoint } from '#shared/contract/endpoint.ts';

/** The part of an endpoint the edge limits need. */
export type LimitedEndpoint = Pick<Endpoint, 'id' | 'method' | 'fullPath' | 'auth'>;

/**
 * The endpoints anyone may call without a token (the registry's `auth: 'public'`: the sign-in URL, the token
 * exchanges, the account metadata, staff verification, device authentication). They are where passwords, codes and
 * device secrets are guessed, so the WAF and the API stage limit them hardest. Derived from the contract, never listed
 * by hand: a new public endpoint is limited the day it is declared.
 */
export function publicEndpointsOf<T extends Pick<Endpoint, 'auth'>>(endpoints: readonly T[]): T[] {
  return endpoints.filter((endpoint) => endpoint.auth === 'public');
}

/**
 * An anchored regular expression matching the request paths of a route path (`/api/v1/{client}/url` →
 * `^/api/v1/[^/]+/url$`), in the subset of PCRE that AWS WAF accepts (no groups).
 */
export function pathPatternOf(fullPath: string): string {
  const escaped = fullPath
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return `^${escaped}$`;
}
