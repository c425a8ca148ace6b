import type { SupervisionReport } from '#shared/constants/supervision.ts';
import { supervisionEndpoints } from '#shared/contract/endpoints/supervision.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useEndpointQuery } from '../../../lib/api-hooks.ts';

/** `GET supervision/reports/{report}`: outstanding, outcomes or reviewers over a period. */
export const getReport = endpointOf(supervisionEndpoints, 'admin.supervision.reports.get');

/** One report over the period (days `YYYY-MM-DD`, both optional; the server reads them as UTC days). */
export function useSupervisionReport(report: SupervisionReport, period: { from?: string | undefined; to?: string | undefined }) {
  const query = { ...(period.from === undefined ? {} : { from: period.from }), ...(period.to === undefined ? {} : { to: period.to }) };
  return useEndpointQuery(getReport, { params: { report }, query });
}
