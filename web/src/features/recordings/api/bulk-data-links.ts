import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { DataAction } from '#shared/constants/payloads.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';
import { earliestExpiry } from './link-expiry.ts';

/** `GET data`: short-lived links for 1 to 100 recordings, each with its PayloadDataStatus; every link given is audited. */
export const bulkDataLinks = endpointOf(payloadEndpoints, 'client.data.bulk');

/** The most references one request takes (spec: bulk limit 100). */
export const BULK_LIMIT = 100;

/** If a link does not say how long it lives, assume the server's usual 300 seconds. */
export const LINK_LIFETIME_MS = 300_000;

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
 * View links for the recordings shown (a conversation's messages, the photos whose previews were asked for), asked
 * for once per opening of the screen: one `GET data?action=view` per hundred recordings not yet linked, so each
 * recording shown gets ONE "view" record in its audit per opening. Never through the query cache: no render,
 * refetch or window focus asks again (a screen opened anew is a new opening, and asks anew); recordings added later
 * (another page of the list) are asked for alone. Off while `enabled` is false (the role may not view, or nobody asked). Answers the link of each recording
 * that has one, and the refusal (PayloadDataStatus or error) of each that has none.
 */
export function useViewLinks(references: readonly string[], enabled: boolean) {
  const { session } = useSession();
  const asked = useRef(new Set<string>());
  const [answers, setAnswers] = useState<{ links: ReadonlyMap<string, string>; refused: ReadonlyMap<string, string>; loading: number }>({
    links: new Map(),
    refused: new Map(),
    loading: 0,
  });
  const wanted = references.join(',');

  useEffect(() => {
    if (!enabled) return;
    const missing = wanted === '' ? [] : wanted.split(',').filter((reference) => !asked.current.has(reference));
    for (let start = 0; start < missing.length; start += BULK_LIMIT) {
      const chunk = missing.slice(start, start + BULK_LIMIT);
      for (const reference of chunk) asked.current.add(reference);
      setAnswers((current) => ({ ...current, loading: current.loading + 1 }));
      // No abort on unmount: a link the server gave is on the audit trail whether or not it is shown.
      fetchBulkDataLinks(session, chunk, 'view').then(
        (answer) =>
          setAnswers((current) => {
            const links = new Map(current.links);
            const refused = new Map(current.refused);
            for (const row of answer.data) {
              if (row.s3_url !== undefined) links.set(row.payload_reference, row.s3_url);
              else refused.set(row.payload_reference, row.status);
            }
            return { links, refused, loading: current.loading - 1 };
          }),
        (error: unknown) =>
          setAnswers((current) => {
            const refused = new Map(current.refused);
            for (const reference of chunk) refused.set(reference, error instanceof Error ? error.message : String(error));
            return { ...current, refused, loading: current.loading - 1 };
          }),
      );
    }
  }, [session, wanted, enabled]);

  return { links: answers.links, refused: answers.refused, isLoading: answers.loading > 0 };
}

/** Download links asked for on a button press (never cached: each press is a new, audited request). */
export function useDownloadLinks() {
  const { session } = useSession();
  return useMutation({
    mutationFn: (references: readonly string[]) => fetchWithExpiry(session, references, 'download', new AbortController().signal),
  });
}
