import { z } from 'zod/mini';
import { RETENTION_RECORD_TYPES } from '#shared/constants/account.ts';
import { DISPOSAL_ACTIONS } from '#shared/contract/entities/account-data.ts';
import { compactQuery, optionalDay, optionalText } from '../../lib/search-params.ts';
import type { DisposalQuery } from './api/list-disposals.ts';

/**
 * The disposal records' filters as URL search fields. Named apart from the activity trails' (`action` there is an
 * API action), so both can live in one screen's URL.
 */
export const DisposalSearchFields = {
  record_type: z.catch(z.optional(z.enum(RETENTION_RECORD_TYPES)), undefined),
  disposal: z.catch(z.optional(z.enum(DISPOSAL_ACTIONS)), undefined),
  disposed_from: optionalDay,
  disposed_to: optionalDay,
  run_id: optionalText(64),
};
export const DisposalSearch = z.object(DisposalSearchFields);
export type DisposalSearch = z.infer<typeof DisposalSearch>;

/** The API query for the filters: blank ones left out, the dates as the API's DateTimeParam days. */
export function disposalQueryOf(search: DisposalSearch): DisposalQuery {
  return {
    ...compactQuery({ from: search.disposed_from, to: search.disposed_to, run_id: search.run_id }),
    ...(search.record_type === undefined ? {} : { record_type: search.record_type }),
    ...(search.disposal === undefined ? {} : { action: search.disposal }),
  };
}
