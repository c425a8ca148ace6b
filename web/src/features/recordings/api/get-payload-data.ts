import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { DataAction } from '#shared/constants/payloads.ts';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { sessionQueryOptions } from '../../../lib/api-hooks.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { useSession } from '../../../lib/session/session-context.tsx';
import type { Session } from '../../../lib/session/session.ts';
import { payloadAuditQueryKey } from './get-payload-audit.ts';
import { linkExpiresAt } from './link-expiry.ts';

/** `GET payloads/{ref}/data`: a short-lived link to the recording, and one payload audit record of its action. */
export const getPayloadData = endpointOf(payloadEndpoints, 'client.payloads.data');

/** If a link does not say how long it lives, assume the server's 300 seconds. */
const LINK_LIFETIME_MS = 300_000;
/** A link is reused while it has at least this long to live (a player that starts on it can still load). */
const REUSE_MARGIN_MS = 60_000;

/** A download link, asked for on each press (each is a new copy, and a new record in the audit trail). */
export function payloadDataQueryOptions(session: Session, payloadReference: string, action: DataAction) {
  return {
    ...sessionQueryOptions(session, getPayloadData, { params: { payload_reference: payloadReference }, query: { action } }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  } as const;
}

export interface DataLink {
  /** idle: never asked in this opening; loading: asked; ready: `url` given; failed: `error` says why. */
  status: 'idle' | 'loading' | 'ready' | 'failed';
  url: string | undefined;
  error: Error | undefined;
  /** When the current link was given (ms), to tell an expired link from media that does not play. */
  givenAt: number | undefined;
  /**
   * Asks for the link, or answers the one already given while it lives: one request, and so one payload audit record,
   * per act. `renew` asks anew even so (the link in use stopped working).
   */
  request(options?: { renew?: boolean }): Promise<string | undefined>;
}

interface Given {
  reference: string;
  url: string;
  givenAt: number;
  expiresAt: number;
}

/**
 * A play or view link of one recording, asked for only when `request` is called: when playback starts (the first
 * Play, a comment's span pressed) or when a photo or a message is opened. Never through the query cache, so no
 * render, refetch, window focus or remount can ask again and write another record: while the link lives, every
 * later request answers it (no new record); an expired one is replaced on the next request (a new act, a new
 * record). Concurrent requests share one call. The recording's audit trail is refreshed once the link was given.
 */
export function useDataLink(payloadReference: string, action: Exclude<DataAction, 'download'>): DataLink {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ reference: string; status: DataLink['status']; url?: string; error?: Error; givenAt?: number }>({
    reference: payloadReference,
    status: 'idle',
  });
  const given = useRef<Given | undefined>(undefined);
  const pending = useRef<{ reference: string; answer: Promise<string | undefined> } | undefined>(undefined);

  const request = useCallback(
    (options: { renew?: boolean } = {}): Promise<string | undefined> => {
      const live = given.current;
      if (options.renew !== true && live?.reference === payloadReference && live.expiresAt - Date.now() > REUSE_MARGIN_MS) {
        return Promise.resolve(live.url);
      }
      if (pending.current?.reference === payloadReference) return pending.current.answer;
      setState({ reference: payloadReference, status: 'loading' });
      const asked = Date.now();
      const answer = session
        .call(getPayloadData, { params: { payload_reference: payloadReference }, query: { action } })
        .then(
          (data) => {
            void queryClient.invalidateQueries({ queryKey: payloadAuditQueryKey(session, payloadReference) });
            const url = data.s3_url;
            if (url === undefined) {
              setState({ reference: payloadReference, status: 'failed', error: new Error('No link was given.') });
              return undefined;
            }
            given.current = { reference: payloadReference, url, givenAt: asked, expiresAt: linkExpiresAt(url) ?? asked + LINK_LIFETIME_MS };
            setState({ reference: payloadReference, status: 'ready', url, givenAt: asked });
            return url;
          },
          (error: unknown) => {
            setState({ reference: payloadReference, status: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
            return undefined;
          },
        )
        .finally(() => {
          if (pending.current?.answer === answer) pending.current = undefined;
        });
      pending.current = { reference: payloadReference, answer };
      return answer;
    },
    [session, queryClient, payloadReference, action],
  );

  // Another recording on the same screen starts from nothing.
  const current = state.reference === payloadReference ? state : { status: 'idle' as const };
  return {
    status: current.status,
    url: 'url' in current ? current.url : undefined,
    error: 'error' in current ? current.error : undefined,
    givenAt: 'givenAt' in current ? current.givenAt : undefined,
    request,
  };
}
