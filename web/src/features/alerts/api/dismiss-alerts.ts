import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { alertSummary } from './alert-summary.ts';
import { getAlert, getClientAlert } from './get-alert.ts';
import { listAlerts, listInternalAlerts } from './list-alerts.ts';

/** `PUT alerts/dismiss`: hide 1 to 100 alerts for the calling user only (others still see them). */
export const dismissAlerts = endpointOf(alertEndpoints, 'admin.alerts.dismiss');
/** `PUT /clients/{client}/alerts/dismiss` (staff). */
export const dismissClientAlerts = endpointOf(alertEndpoints, 'internal.clients.alerts.dismiss');

const STALE = [listAlerts, listInternalAlerts, getAlert, getClientAlert, alertSummary] as const;

export function useDismissAlerts() {
  return useEndpointMutation(dismissAlerts, { invalidates: STALE });
}

export function useDismissClientAlerts() {
  return useEndpointMutation(dismissClientAlerts, { invalidates: STALE });
}
