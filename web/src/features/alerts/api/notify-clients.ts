import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { useEndpointMutation } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { listInternalAlerts } from './list-alerts.ts';

/** `POST /alerts` (staff): a Notification alert in the listed clients, or in all of them. */
export const notifyClients = endpointOf(alertEndpoints, 'internal.alerts.notify');

export function useNotifyClients() {
  return useEndpointMutation(notifyClients, { invalidates: [listInternalAlerts] });
}
