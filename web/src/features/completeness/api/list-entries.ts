import { PAGE_SIZE_MAX } from '#shared/constants/limits.ts';
import { completenessEndpoints } from '#shared/contract/endpoints/completeness.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import type { CompletenessEntry } from '#shared/contract/entities/completeness.ts';
import type { CallInput } from '../../../lib/api-client.ts';
import { useCursorList } from '../../../lib/api-hooks.ts';
import type { Session } from '../../../lib/session/session.ts';

/** `GET completeness/entries`: the ledger entries (and unexpected recordings) behind a count, newest first. */
export const listCompletenessEntries = endpointOf(completenessEndpoints, 'client.completeness.entries');

/** The entries' filters as the API reads them (wire text), without the paging fields. */
export type CompletenessEntriesQuery = Omit<NonNullable<CallInput<typeof listCompletenessEntries>['query']>, 'last_key' | 'result_type'>;

/** The entries, loaded page by page with the cursor. */
export function useCompletenessEntries(query: CompletenessEntriesQuery, options: { enabled?: boolean } = {}) {
  return useCursorList(listCompletenessEntries, { query }, options);
}

/** Pages read for one download at most (100 entries each): 10,000 entries; more says the file is partial. */
export const ENTRY_PAGES_MAX = 100;

/**
 * Every entry of the filters, page by page (a person's ledger export), up to ENTRY_PAGES_MAX pages; `partial` says
 * more were left unread, so the download can say its file is not the whole ledger.
 */
export async function fetchAllEntries(
  session: Session,
  query: CompletenessEntriesQuery,
  onProgress: (fetched: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<{ entries: CompletenessEntry[]; partial: boolean }> {
  const entries: CompletenessEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await session.call(
      listCompletenessEntries,
      { query: { ...query, limit: String(PAGE_SIZE_MAX), ...(cursor === undefined ? {} : { last_key: cursor }) } },
      signal,
    );
    if (!('data' in page)) break;
    entries.push(...page.data);
    pages += 1;
    onProgress(entries.length);
    cursor = page.last_key !== undefined && page.last_key !== cursor ? page.last_key : undefined;
  } while (cursor !== undefined && pages < ENTRY_PAGES_MAX);
  return { entries, partial: cursor !== undefined };
}
