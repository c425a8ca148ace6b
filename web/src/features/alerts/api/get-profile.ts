import type { AlertPermissions } from '#shared/contract/entities/alerts.ts';
import { identityEndpoints } from '#shared/contract/endpoints/identity.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET profile`: carries `alert_permissions`, the union over the caller's roles in force (read and clear per scope). */
export const getProfile = endpointOf(identityEndpoints, 'admin.profile.get');

/** The signed-in user's alert permissions; undefined while the profile loads. */
export function useAlertPermissions(): AlertPermissions | undefined {
  const profile = useEndpointQuery(getProfile, {});
  if (profile.data === undefined) return undefined;
  return profile.data.alert_permissions ?? { ops_read: false, ops_write: false, sec_read: false, sec_write: false };
}
