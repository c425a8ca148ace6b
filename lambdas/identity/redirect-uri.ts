import { InternalError } from '#core/errors.ts';

/** Port the local portal is assumed on when neither `local_port` nor `PORTAL_URL` (core config) says otherwise. */
export const DEFAULT_LOCAL_PORTAL_PORT = 3000;

/**
 * Where the identity provider sends the browser back: the portal's `/sign-in`. A `local_port` (a developer's portal
 * on this machine talking to any backend) wins; then `PORTAL_URL`; then, in local mode only, localhost:3000.
 * The provider itself checks the URI against the app client's registered callbacks.
 */
export function signInRedirectUri(options: { mode: 'local' | 'aws'; portalUrl: string | undefined; localPort?: number }): string {
  if (options.localPort !== undefined) return `http://localhost:${options.localPort}/sign-in`;
  if (options.portalUrl !== undefined) return `${options.portalUrl.replace(/\/+$/, '')}/sign-in`;
  if (options.mode === 'local') return `http://localhost:${DEFAULT_LOCAL_PORTAL_PORT}/sign-in`;
  throw new InternalError('Identity not configured: PORTAL_URL missing');
}
