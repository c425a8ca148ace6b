import { alertEndpoints } from '#shared/contract/endpoints/alerts.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';

/** `GET alerts/summary`: counts of Triggered alerts the caller has not dismissed, per scope and severity. */
export const alertSummary = endpointOf(alertEndpoints, 'admin.alerts.summary');

/** How often the header badge asks again: new alerts arrive without the user doing anything. */
const SUMMARY_REFRESH_MS = 60_000;

export function useAlertSummary(enabled: boolean) {
  return useEndpointQuery(alertSummary, {}, { enabled, refetchInterval: SUMMARY_REFRESH_MS });
}
