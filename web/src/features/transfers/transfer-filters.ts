import { z } from 'zod/mini';
import { TRANSFER_STATES } from '#shared/constants/account.ts';
import { optionalDay, optionalText } from '../../lib/search-params.ts';
import type { TransferListQuery } from './api/list-transfers.ts';

/** The transfers screen's URL: its filters (state, configuration, created between two days). */
export const TransfersSearch = z.object({
  state: z.catch(z.optional(z.enum(TRANSFER_STATES)), undefined),
  config: optionalText(255),
  from: optionalDay,
  to: optionalDay,
});
export type TransfersSearch = z.infer<typeof TransfersSearch>;

/** The list query for a search: unset filters are left out (the API's query is strict). */
export function transferQueryOf(search: TransfersSearch): TransferListQuery {
  return {
    ...(search.state === undefined ? {} : { transfer_state: search.state }),
    ...(search.config === undefined ? {} : { transfer_config_reference: search.config }),
    ...(search.from === undefined ? {} : { from: search.from }),
    ...(search.to === undefined ? {} : { to: search.to }),
  };
}
