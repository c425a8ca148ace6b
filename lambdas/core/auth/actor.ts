import { UnauthorizedError } from '../errors.ts';
import { ADMIN_CLIENT, type DevicePrincipal, type Principal } from './principal.ts';

/**
 * Who an access record names as having acted (`updated_by` of roles, groups, tags, client apps, account defaults,
 * device users and devices; a command's `raised_by`): a stable reference, never an e-mail.
 * - a tenant's portal user: their portal user reference, the token's `sub` (the user activity trail's `user_id`, so
 *   a record and the trail name the same person the same way; an e-mail can change hands, a subject cannot);
 * - provider staff, on the internal console or in support mode: `staff:<sub>` (staff come from another identity pool,
 *   so a bare subject could be a tenant user's too);
 * - a tenant's client app: `app:<app_reference>` (its `sub` is an identity at the app's own issuer, not ours);
 * - a device: `device:<device_reference>`;
 * - nobody authenticated: `unknown`. Jobs name themselves (`job:<name>`) and do not call this.
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
 * Who a record that people read and filter by names as having acted: the e-mail where the token carries one, else as
 * `actorOf` names them. Used where a compliance officer sees and searches the name: comments (`raised_by`,
 * `updated_by`, `closed_by`, and the `raised_by` filter), alerts (`cleared_by`, `dismissed_by`), the payload audit's
 * `portal_user` and a restored payload's `updated_by`, licence limits' `updated_by`, support requests
 * (`requested_by`, `approved_by`, `updated_by`) and their security alerts' text.
 */
export function actorLabelOf(principal: Principal | undefined): string {
  return principal?.kind === 'user' && principal.email !== undefined ? principal.email : actorOf(principal);
}

/** The calling device of a device endpoint, or 401: its tenant and device reference come from its token only. */
export function deviceOf(principal: Principal | undefined): DevicePrincipal {
  if (principal?.kind !== 'device') throw new UnauthorizedError('Device token required');
  return principal;
}
