import { UnauthorizedError } from '../errors.ts';
import { ADMIN_CLIENT, type DevicePrincipal, type Principal } from './principal.ts';

/**
 * Who a record names as having acted (`updated_by`, `raised_by`, `closed_by`, `cleared_by`, `dismissed_by`,
 * `requested_by`, `approved_by`, a payload audit's `portal_user`, a command's `raised_by`):
 * - a tenant's portal user: their portal user reference, the token's `sub` (the user activity trail's `user_id`, so
 *   a record and the trail name the same person the same way; an e-mail can change hands, a subject cannot);
 * - provider staff, on the internal console or in support mode: `staff:<sub>` (staff come from another identity pool,
 *   so a bare subject could be a tenant user's too);
 * - a tenant's client app: `app:<app_reference>` (its `sub` is an identity at the app's own issuer, not ours);
 * - a device: `device:<device_reference>`;
 * - nobody authenticated: `unknown`. Jobs name themselves (`job:<name>`) and do not call this.
 * Never an e-mail: like `describePrincipal`, a record names principals by their references only.
 */
export function actorOf(principal: Principal | undefined): string {
  switch (principal?.kind) {
    case 'user':
      return principal.client === ADMIN_CLIENT ? `staff:${principal.subject}` : principal.subject;
    case 'client-app':
      return `app:${principal.appReference}`;
    case 'device':
      return `device:${principal.deviceReference}`;
    default:
      return 'unknown';
  }
}

/**
 * How a message shown to people (an alert's text) names who acted: the e-mail where the token carries one, else as a
 * record names them. Messages only: a record keeps `actorOf`, which never changes hands.
 */
export function actorLabelOf(principal: Principal | undefined): string {
  return principal?.kind === 'user' && principal.email !== undefined ? principal.email : actorOf(principal);
}

/** The calling device of a device endpoint, or 401: its tenant and device reference come from its token only. */
export function deviceOf(principal: Principal | undefined): DevicePrincipal {
  if (principal?.kind !== 'device') throw new UnauthorizedError('Device token required');
  return principal;
}
