import { z } from 'zod/mini';
import { ALERT_DATE_FILTERS, ALERT_SCOPES, ALERT_SEVERITIES, ALERT_STATES, ALERT_TYPES } from '#shared/constants/alerts.ts';
import { optionalDay, optionalFlag, optionalText } from '../../lib/search-params.ts';
import type { AlertListQuery } from './list-alerts.ts';

/** The alert screens' URL: the scope tab, the list filters and the alert open in the detail panel. */
export const AlertsSearch = z.object({
  scope: z.catch(z.optional(z.enum(ALERT_SCOPES)), undefined),
  state: z.catch(z.optional(z.enum(ALERT_STATES)), undefined),
  severity: z.catch(z.optional(z.enum(ALERT_SEVERITIES)), undefined),
  type: z.catch(z.optional(z.enum(ALERT_TYPES)), undefined),
  date_filter: z.catch(z.optional(z.enum(ALERT_DATE_FILTERS)), undefined),
  from: optionalDay,
  to: optionalDay,
  active_only: optionalFlag,
  /** The alert shown in the detail panel, and the client it belongs to (staff only). */
  alert: optionalText(60),
  alert_client: optionalText(60),
});
export type AlertsSearch = z.infer<typeof AlertsSearch>;

/** The list query for a search and the scope tab shown: unset filters are left out (the API's query is strict). */
export function alertQueryOf(search: AlertsSearch, scope: (typeof ALERT_SCOPES)[number]): AlertListQuery {
  return {
    alert_scope: scope,
    ...(search.state === undefined ? {} : { alert_state: search.state }),
    ...(search.severity === undefined ? {} : { alert_severity: search.severity }),
    ...(search.type === undefined ? {} : { alert_type: search.type }),
    ...(search.date_filter === undefined ? {} : { date_filter: search.date_filter }),
    ...(search.from === undefined ? {} : { from: search.from }),
    ...(search.to === undefined ? {} : { to: search.to }),
    ...(search.active_only === true ? { active_only: 'true' } : {}),
  };
}
