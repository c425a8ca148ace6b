import type { UserProfile } from '#shared/contract/entities/account.ts';
import { applicableRoles } from '#shared/permissions/evaluate.ts';
import { unionPermissions } from '../alerts/public.ts';
import { InternalError } from '#core/errors.ts';
import type { TenantCaller } from '#core/http/caller.ts';
import { readPortalUser } from '#core/store/entities/portal-user.ts';
import { keys } from '#core/store/keys.ts';

/**
 * The signed-in user's profile in the caller's tenant (the path's: in support mode staff see the tenant they act in).
 * - `roles`: the roles in force (the user's, the account default, or the support request's role);
 * - `groups`: the identity provider's group claim as the token carries it (`cognito:groups`);
 * - `actions` and `payload_types`: what the access context computed from those roles;
 * - `user_group`: the access context's, else the portal user's own; `portal_config`: the portal user's stored
 *   portal preferences, when any; `alert_permissions`: the union over the roles that apply from the caller's address.
 */
export async function profileOf(caller: TenantCaller): Promise<UserProfile> {
  const { deps, tenant: client, principal, access } = caller;
  // The profile routes are for signed-in portal users, whose access is always resolved: anything else is our bug.
  if (principal?.kind !== 'user') throw new InternalError('profile without a user principal');
  if (access === undefined) throw new InternalError('No access context on an authenticated route');
  const item = await deps.table.get(keys.portalUser.item(principal.client, principal.subject));
  const user = item === undefined ? undefined : readPortalUser(item);
  const userGroup = access.userGroup ?? user?.user_group;
  const portalConfig = user?.portal_config;
  return {
    user_reference: principal.subject,
    client,
    actions: access.allowedActions(),
    groups: [...principal.groups],
    payload_types: [...access.payloadTypes],
    roles: [...access.roleReferences],
    alert_permissions: unionPermissions(applicableRoles(access.roles, access.ip)),
    ...(userGroup === undefined ? {} : { user_group: userGroup }),
    ...(portalConfig === undefined ? {} : { portal_config: portalConfig }),
  };
}
