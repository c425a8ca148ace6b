import { z } from 'zod/mini';
import { SUPERVISION_ITEM_STATES } from '#shared/constants/supervision.ts';
import { compactQuery, optionalDay, optionalFlag, optionalText } from '../../../lib/search-params.ts';

/**
 * The queue's filters in the URL (`/dashboard/supervision?state=Open&overdue=true`). Junk in a hand-edited link falls
 * back to "unset", so it shows the wider queue rather than an error page. Kept apart from the components: route
 * options are in the first bundle, so this file imports nothing heavier than zod/mini and the constants.
 */
export const SupervisionQueueSearch = z.object({
  state: z.catch(z.optional(z.enum(SUPERVISION_ITEM_STATES)), undefined),
  policy_reference: optionalText(60),
  assignee: optionalText(),
  device_user_reference: optionalText(60),
  group: optionalText(),
  /** The period is on the recording's time, as the API reads it. */
  from: optionalDay,
  to: optionalDay,
  overdue: optionalFlag,
});
export type SupervisionQueueSearch = z.infer<typeof SupervisionQueueSearch>;

/** The API query for the queue's filters: every set filter as the API spells it, the unset left out. */
export function queueQuery(search: SupervisionQueueSearch) {
  return compactQuery({
    state: search.state,
    policy_reference: search.policy_reference,
    assignee: search.assignee,
    device_user_reference: search.device_user_reference,
    group: search.group,
    from: search.from,
    to: search.to,
    // The API reads the flag as its text; only a set flag travels.
    overdue: search.overdue === true ? ('true' as const) : undefined,
  });
}
