import { z } from 'zod/mini';
import { COMPLETENESS_OUTCOMES, LEDGER_PAYLOAD_TYPES } from '#shared/constants/completeness.ts';
import { optionalDay, optionalText } from '../../lib/search-params.ts';

/**
 * URL search of the completeness report: the period (UTC days, both ends included; the last 30 days when unset), the
 * group, the gaps table shown (people or devices), and the drill-down to the entries behind a count (an outcome, one
 * day, one person or device, one payload type). Apart from the screen: route options load in the first chunk.
 */
export const CompletenessSearch = z.object({
  from: optionalDay,
  to: optionalDay,
  group: optionalText(),
  gaps: z.catch(z.optional(z.enum(['device_user', 'device'])), undefined),
  outcome: z.catch(z.optional(z.enum(COMPLETENESS_OUTCOMES)), undefined),
  day: optionalDay,
  device_user_reference: optionalText(60),
  device_reference: optionalText(60),
  payload_type: z.catch(z.optional(z.enum(LEDGER_PAYLOAD_TYPES)), undefined),
  /** The entries are shown (a count was opened, or "All entries"). */
  entries: z.catch(z.optional(z.boolean()), undefined),
});
export type CompletenessSearch = z.infer<typeof CompletenessSearch>;

/** The drill-down's part of the search: cleared together when the entries are closed. */
export const DRILL_KEYS = ['outcome', 'day', 'device_user_reference', 'device_reference', 'payload_type', 'entries'] as const;
