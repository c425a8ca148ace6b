import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { getAlert, getClientAlert } from './get-alert.ts';
import { listAlerts, listInternalAlerts } from './list-alerts.ts';
import { alertSummary } from './alert-summary.ts';

/** `PUT alerts`: clear 1 to 100 alerts (action Clear), with an optional reason. */
export const clearAlerts = endpointOf(alertEndpoints, 'admin.alerts.close');
/** `PUT /clients/{client}/alerts` (staff). */
export const clearClientAlerts = endpointOf(alertEndpoints, 'internal.clients.alerts.close');

const STALE = [listAlerts, listInternalAlerts, getAlert, getClientAlert, alertSummary] as const;

export function useClearAlerts() {
  return useEndpointMutation(clearAlerts, { invalidates: STALE });
}

export function useClearClientAlerts() {
  return useEndpointMutation(clearClientAlerts, { invalidates: STALE });
}
