import { z } from 'zod/mini';
import { ALERT_DATE_FILTERS, ALERT_SCOPES, ALERT_SEVERITIES, ALERT_STATES, ALERT_TYPES } from '#shared/constants/alerts.ts';
import { optionalDay, optionalFlag, optionalText } from '../../lib/search-params.ts';
import type { AlertListQuery } from './api/list-alerts.ts';

/** The tab listing every scope the user may read together. */
export const ALL_SCOPES = 'all';

/**
 * Where the header's alert count leads: every Triggered alert the user has not dismissed, of every scope they may
 * read, in one list: exactly the alerts the count counts (alerts:Summary counts per readable scope, not dismissed).
 */
export const ATTENTION_SEARCH = { scope: ALL_SCOPES, active_only: true } as const satisfies AlertsSearch;

/** The alert screens' URL: the scope tab, the list filters and the alert open in the detail panel. */
export const AlertsSearch = z.object({
  /** A scope's tab, or `all`: every scope the user may read in one list (what the header's alert count counts). */
  scope: z.catch(z.optional(z.enum([...ALERT_SCOPES, ALL_SCOPES])), undefined),
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
export function alertQueryOf(search: AlertsSearch, scope: (typeof ALERT_SCOPES)[number] | typeof ALL_SCOPES): AlertListQuery {
  return {
    // No scope: the API lists every scope the caller may read, as the summary counts them.
    ...(scope === ALL_SCOPES ? {} : { alert_scope: scope }),
    ...(search.state === undefined ? {} : { alert_state: search.state }),
    ...(search.severity === undefined ? {} : { alert_severity: search.severity }),
    ...(search.type === undefined ? {} : { alert_type: search.type }),
    ...(search.date_filter === undefined ? {} : { date_filter: search.date_filter }),
    ...(search.from === undefined ? {} : { from: search.from }),
    ...(search.to === undefined ? {} : { to: search.to }),
    ...(search.active_only === true ? { active_only: 'true' } : {}),
  };
}
