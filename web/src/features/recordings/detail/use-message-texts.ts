import { useQueries } from '@tanstack/react-query';
import { useSession } from '../../../lib/session/session-context.tsx';

/** The longest text shown of one message (an SMS is far shorter; anything longer is cut, not loaded whole). */
const MAX_TEXT_BYTES = 64 * 1024;

/**
 * The text of each SMS or RCS message, fetched from its play link. A message's text never changes, so it is kept
 * while the page lives (the link it came from expires; the text does not).
 */
export function useMessageTexts(messages: ReadonlyArray<{ reference: string; url: string | undefined }>) {
  const { state } = useSession();
  return useQueries({
    queries: messages.map(({ reference, url }) => ({
      queryKey: ['message-text', state.client ?? null, state.supportReference ?? null, reference],
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const response = await fetch(String(url), { signal, headers: { Range: `bytes=0-${MAX_TEXT_BYTES - 1}` } });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return new TextDecoder('utf-8').decode(await response.arrayBuffer());
      },
      enabled: url !== undefined,
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 10 * 60_000,
      retry: false,
    })),
    combine: (results) => new Map(messages.map(({ reference }, index) => [reference, results[index]])),
  });
}
