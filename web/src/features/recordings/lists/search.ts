import { z } from 'zod/mini';
import { PAYLOAD_DATE_FILTER_TYPES, PAYLOAD_STATES, PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import { optionalDay, optionalFlag, optionalText } from '../../../lib/search-params.ts';

/**
 * URL search schemas of the recordings screens. Kept apart from the components: route options are in the first
 * bundle, so this file imports nothing heavier than zod/mini and the constants.
 */

export const RecordingsSearch = z.object({
  from: optionalDay,
  to: optionalDay,
  date_filter_type: z.catch(z.optional(z.enum(PAYLOAD_DATE_FILTER_TYPES)), undefined),
  /** One type within the screen's types (e.g. only aborted calls); unset means all of them. */
  type: z.catch(z.optional(z.enum(PAYLOAD_TYPES)), undefined),
  payload_state: z.catch(z.optional(z.enum(PAYLOAD_STATES)), undefined),
  is_late: optionalFlag,
  /** Only recordings stored (reached Processed): what the services overview and the metrics count. */
  stored: optionalFlag,
  group: optionalText(),
  device_reference: optionalText(60),
  device_user_reference: optionalText(60),
  phone_number: optionalText(),
  /** Photos: a grid of thumbnails or the table. */
  view: z.catch(z.optional(z.enum(['grid', 'table'])), undefined),
});
export type RecordingsSearch = z.infer<typeof RecordingsSearch>;

export const CommentsSearch = z.object({
  from: optionalDay,
  to: optionalDay,
  type: z.catch(z.optional(z.enum(PAYLOAD_TYPES)), undefined),
  group: optionalText(),
  raised_by: optionalText(),
  include_closed: optionalFlag,
});
export type CommentsSearch = z.infer<typeof CommentsSearch>;

/** The overview's period: the last 7, 30 or 90 days, or 365 (default 30). */
export const OVERVIEW_PERIODS = ['7', '30', '90', '365'] as const;
export const ServicesOverviewSearch = z.object({ days: z.catch(z.optional(z.enum(OVERVIEW_PERIODS)), undefined) });
export type ServicesOverviewSearch = z.infer<typeof ServicesOverviewSearch>;
