import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET alerts/{alert_reference}`: one alert with its occurrences. */
export const getAlert = endpointOf(alertEndpoints, 'admin.alerts.get');
/** `GET /clients/{client}/alerts/{alert_reference}` (staff). */
export const getClientAlert = endpointOf(alertEndpoints, 'internal.clients.alerts.get');

/** One alert; staff name the client it belongs to (the provider's own alerts are client `admin`). */
export function useAlert(surface: 'tenant' | 'staff', reference: string, client: string) {
  const tenant = useEndpointQuery(getAlert, { params: { alert_reference: reference } }, { enabled: surface === 'tenant' });
  const staff = useEndpointQuery(getClientAlert, { client, params: { alert_reference: reference } }, { enabled: surface === 'staff' });
  return surface === 'tenant' ? tenant : staff;
}
