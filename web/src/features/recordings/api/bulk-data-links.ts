import { queryOptions, useMutation, useQueries } from '@tanstack/react-query';
import type { DataAction } from '#shared/constants/payloads.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryKey } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../session/session-context.tsx';
import type { Session } from '../../session/session.ts';
import { earliestExpiry } from './link-expiry.ts';

/** `GET data`: short-lived links for 1 to 100 recordings, each with its PayloadDataStatus; every link is audited. */
export const bulkDataLinks = endpointOf(payloadEndpoints, 'client.data.bulk');

/** The most references one request takes (spec: bulk limit 100). */
export const BULK_LIMIT = 100;

/** If a link does not say how long it lives, assume the server's usual 300 seconds. */
export const LINK_LIFETIME_MS = 300_000;
/** A shown link is replaced this long before it expires. */
const REFRESH_BEFORE_EXPIRY_MS = 60_000;

export function fetchBulkDataLinks(session: Session, references: readonly string[], action: DataAction, signal?: AbortSignal) {
  return session.call(bulkDataLinks, { query: { payload_references: references.join(','), action } }, signal);
}

/** The links with the moment the first of them expires (read from the links themselves). */
async function fetchWithExpiry(session: Session, references: readonly string[], action: DataAction, signal: AbortSignal) {
  const asked = Date.now();
  const answer = await fetchBulkDataLinks(session, references, action, signal);
  const urls = answer.data.flatMap((row) => (row.s3_url === undefined ? [] : [row.s3_url]));
  return { ...answer, expiresAt: earliestExpiry(urls, asked + LINK_LIFETIME_MS) };
}

/**
 * Links for the given recordings (at most BULK_LIMIT), never kept past their expiry: while shown they are asked for
 * again a minute before the first expires; put away, the answer is dropped within that minute, so a screen opened
 * again never starts from expired links.
 */
export function bulkDataLinksOptions(session: Session, references: readonly string[], action: DataAction) {
  const state = session.getState();
  const query = { payload_references: references.join(','), action };
  const refreshIn = (expiresAt: number | undefined) => Math.max(1_000, (expiresAt ?? 0) - REFRESH_BEFORE_EXPIRY_MS - Date.now());
  return queryOptions({
    queryKey: sessionQueryKey(bulkDataLinks, { client: state.client, supportReference: state.supportReference }, { query }),
    queryFn: ({ signal }) => fetchWithExpiry(session, references, action, signal),
    staleTime: (cached) => (cached.state.data === undefined ? 0 : refreshIn(cached.state.data.expiresAt)),
    gcTime: REFRESH_BEFORE_EXPIRY_MS,
    refetchInterval: (cached) => refreshIn(cached.state.data?.expiresAt),
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
    mutationFn: (references: readonly string[]) => fetchWithExpiry(session, references, 'download', new AbortController().signal),
  });
}
