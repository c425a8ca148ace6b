import type { Actor } from '#shared/contract/entities/actor.ts';
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
 * Who acted, as a record keeps them beside the stable reference (docs/data-model.md, "Who acted"): the reference
 * (`actorOf`), the kind of caller, and the person's name and e-mail as their token carried them at the time of the act,
 * so screens show "Dana Admin (admin@demo.test)" without a lookup, and a person since removed is still named truly.
 * Staff in support mode carry the support request they act under. Records store `reference` in the spec's own field
 * (`portal_user`, `raised_by`, `updated_by`, `user_id`, …) and this object in the `…_actor` field beside it.
 */
export function actorRecordOf(principal: Principal | undefined): Actor {
  const reference = actorOf(principal);
  switch (principal?.kind) {
    case 'user':
      return {
        reference,
        kind: principal.client === ADMIN_CLIENT ? 'staff' : 'user',
        ...(principal.name === undefined ? {} : { name: principal.name }),
        ...(principal.email === undefined ? {} : { email: principal.email }),
        ...(principal.supportReference === undefined ? {} : { support_request: principal.supportReference }),
      };
    case 'client-app':
      return { reference, kind: 'client-app', name: principal.appReference };
    case 'device':
      return { reference, kind: 'device' };
    default:
      return { reference, kind: 'unknown' };
  }
}

/** A job acting on its own (`job:<name>`), as records name it. */
export function jobActor(name: string): Actor {
  return { reference: `job:${name}`, kind: 'job', name };
}

/** An actor kept on a record, in the words a message uses: "Name (e-mail)", else the name, e-mail or reference. */
export function actorWords(actor: Actor): string {
  if (actor.name !== undefined && actor.email !== undefined) return `${actor.name} (${actor.email})`;
  return actor.name ?? actor.email ?? actor.reference;
}

/**
 * How alerts key a caller's dismissals and per-user counters: by the stable reference (`actorOf`), and, for a portal
 * user whose token carries an e-mail, also by that e-mail, which keyed them before (docs/decisions.md, "Who acted").
 * Dismissals and counters written under the e-mail still count as the person's own; new ones use the reference.
 */
export function alertKeysOf(principal: Principal | undefined): { user: string; formerly: string[] } {
  const user = actorOf(principal);
  const email = principal?.kind === 'user' ? principal.email : undefined;
  return { user, formerly: email === undefined || email === user ? [] : [email] };
}

/** The calling device of a device endpoint, or 401: its tenant and device reference come from its token only. */
export function deviceOf(principal: Principal | undefined): DevicePrincipal {
  if (principal?.kind !== 'device') throw new UnauthorizedError('Device token required');
  return principal;
}
