import type { AlertScope } from '#shared/constants/alerts.ts';
import type { AlertPermissions } from '#shared/contract/entities/alerts.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { useEndpointQuery } from '../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET profile`: carries `alert_permissions`, the union over the caller's roles in force (read and clear per scope). */
export const getProfile = endpointOf(identityEndpoints, 'admin.profile.get');

/** Staff on the internal console act on every scope (the server treats them as full operators). */
export const STAFF_ALERT_PERMISSIONS: AlertPermissions = { ops_read: true, ops_write: true, sec_read: true, sec_write: true };

/** The signed-in user's alert permissions; undefined while the profile loads. */
export function useAlertPermissions(): AlertPermissions | undefined {
  const profile = useEndpointQuery(getProfile, {});
  if (profile.data === undefined) return undefined;
  return profile.data.alert_permissions ?? { ops_read: false, ops_write: false, sec_read: false, sec_write: false };
}

export const canReadScope = (permissions: AlertPermissions, scope: AlertScope): boolean => permissions[`${scope}_read`];
export const canClearScope = (permissions: AlertPermissions, scope: AlertScope): boolean => permissions[`${scope}_write`];
