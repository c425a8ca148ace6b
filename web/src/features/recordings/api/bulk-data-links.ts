import { queryOptions, useMutation, useQueries } from '@tanstack/react-query';
import type { DataAction } from '#shared/constants/payloads.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import { endpointOf } from '../../../lib/endpoint-of.ts';
import { useSession } from '../../session/session-context.tsx';
import type { Session } from '../../session/session.ts';

/** `GET data`: short-lived links for 1 to 100 recordings, each with its PayloadDataStatus; every link is audited. */
export const bulkDataLinks = endpointOf(payloadEndpoints, 'client.data.bulk');

/** The most references one request takes (spec: bulk limit 100). */
export const BULK_LIMIT = 100;

/**
 * The server signs links for 300 seconds. A cached answer is dropped well before that, so a screen never offers a
 * link that has expired; a shown thumbnail is fetched again before its link runs out.
 */
export const LINK_LIFETIME_MS = 300_000;
export const LINK_REFRESH_MS = 240_000;

export function fetchBulkDataLinks(session: Session, references: readonly string[], action: DataAction, signal?: AbortSignal) {
  return session.call(bulkDataLinks, { query: { payload_references: references.join(','), action } }, signal);
}

/** Links for the given recordings (at most BULK_LIMIT), kept no longer than they stay valid. */
export function bulkDataLinksOptions(session: Session, references: readonly string[], action: DataAction) {
  const state = session.getState();
  const query = { payload_references: references.join(','), action };
  return queryOptions({
    queryKey: sessionQueryKey(bulkDataLinks, { client: state.client, supportReference: state.supportReference }, { query }),
    queryFn: ({ signal }) => fetchBulkDataLinks(session, references, action, signal),
    staleTime: LINK_REFRESH_MS,
    gcTime: LINK_REFRESH_MS,
    // Timed from when the links were signed, not from when a screen mounted: a screen opened on a cached answer
    // still refreshes it before it expires.
    refetchInterval: (query) => Math.max(1_000, query.state.dataUpdatedAt + LINK_REFRESH_MS - Date.now()),
    // A refusal is an answer (each row has its status), and a retry would write the audit again.
    retry: false,
  });
}

/**
 * Play links for the thumbnails on screen, one request per hundred recordings; off when there are none or the role
 * may not play recordings. Answers the link of each recording that has one.
 */
export function usePlayLinks(references: readonly string[], enabled: boolean) {
  const { session } = useSession();
  const chunks: string[][] = [];
  for (let start = 0; start < references.length; start += BULK_LIMIT) chunks.push(references.slice(start, start + BULK_LIMIT));
  return useQueries({
    queries: chunks.map((chunk) => ({ ...bulkDataLinksOptions(session, chunk, 'play'), enabled })),
    combine: (results) => {
      const links = new Map<string, string>();
      for (const result of results) for (const row of result.data?.data ?? []) if (row.s3_url !== undefined) links.set(row.payload_reference, row.s3_url);
      return { links, isLoading: results.some((result) => result.isLoading) };
    },
  });
}

/** Download links asked for on a button press (never cached: each press is a new, audited request). */
export function useDownloadLinks() {
  const { session } = useSession();
  return useMutation({
    mutationFn: (references: readonly string[]) => fetchBulkDataLinks(session, references, 'download'),
  });
}
