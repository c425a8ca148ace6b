import { useQueries } from '@tanstack/react-query';
import { fetchMessageText } from '../../../lib/message-text.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/**
 * The text of each SMS or RCS message, fetched from its play link. A message's text never changes, so it is kept
 * while the page lives (the link it came from expires; the text does not).
 */
export function useMessageTexts(messages: ReadonlyArray<{ reference: string; url: string | undefined }>) {
  const { state } = useSession();
  return useQueries({
    queries: messages.map(({ reference, url }) => ({
      queryKey: ['message-text', state.client ?? null, state.supportReference ?? null, reference],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchMessageText(String(url), signal),
      enabled: url !== undefined,
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 10 * 60_000,
      retry: false,
    })),
    combine: (results) => new Map(messages.map(({ reference }, index) => [reference, results[index]])),
  });
}
