import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET alerts`: the tenant's alerts the caller's roles may read, newest first on the chosen occurrence. */
export const listAlerts = endpointOf(alertEndpoints, 'admin.alerts.list');
/** `GET /alerts` (staff): the provider's own alerts, with a copy of every notification sent. */
export const listInternalAlerts = endpointOf(alertEndpoints, 'internal.alerts.list');

export type AlertListQuery = NonNullable<CallInput<typeof listAlerts>['query']>;

export function useAlertList(surface: 'tenant' | 'staff', query: AlertListQuery, enabled = true) {
  return useCursorList(surface === 'tenant' ? listAlerts : listInternalAlerts, { query }, { enabled });
}
