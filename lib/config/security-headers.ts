/**
 * The security headers of every portal and API response: ONE definition, used by CloudFront's response headers policy
 * (lib/stacks/web-stack.ts) and by the local stack's HTTP server (scripts/local/http-server.ts), so the browser tests
 * run the portal under the policy production serves. Only the origins differ, and they are parameters.
 */
export interface SecurityHeaderOrigins {
  /** Where the portal plays and shows recordings from (pre-signed URLs of the processed bucket). */
  readonly payloadOrigin: string;
  /** Where the portal uploads to (pre-signed URLs of the raw bucket: a migration's export file). */
  readonly uploadOrigin: string;
  /**
   * The page is served over https (production). Local pages are plain http on loopback: `upgrade-insecure-requests`
   * there would turn their own stand-ins' http URLs into https ones nobody answers.
   */
  readonly secure: boolean;
  /**
   * More origins the portal is configured to use at deploy time (`config.js`): `connect` for browser monitoring's
   * endpoints (aws-rum-web: `https://dataplane.rum.<region>.amazonaws.com`, `https://cognito-identity.<region>.amazonaws.com`),
   * `img` for the GPS map's tiles. Absent: none.
   */
  readonly extra?: { readonly connect?: readonly string[]; readonly img?: readonly string[] };
}

/** Two years, as HSTS preload lists ask. */
export const HSTS_MAX_AGE_SECONDS = 730 * 24 * 60 * 60;
export const FRAME_OPTION = 'DENY';
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** The CSP of the portal: own scripts only; recordings and uploads on the bucket origins the portal actually uses. */
export function contentSecurityPolicy(origins: SecurityHeaderOrigins): string {
  const { payloadOrigin, uploadOrigin } = origins;
  const connect = [...new Set([payloadOrigin, uploadOrigin, ...(origins.extra?.connect ?? [])])].join(' ');
  const images = [payloadOrigin, ...(origins.extra?.img ?? [])].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Inline style attributes set by React components; no inline script is ever allowed.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${images}`,
    `media-src 'self' blob: ${payloadOrigin}`,
    `connect-src 'self' ${connect}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(origins.secure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** The headers as a response carries them (lower-case names), exactly as CloudFront writes them from the policy. */
export function securityHeaders(origins: SecurityHeaderOrigins): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(origins),
    'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': FRAME_OPTION,
    'referrer-policy': REFERRER_POLICY,
    // The legacy XSS auditor is itself an attack surface; modern guidance is to switch it off.
    'x-xss-protection': '0',
  };
}
