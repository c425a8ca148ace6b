import { useQuery } from '@tanstack/react-query';
import { WaveformPeaks } from '#shared/contract/entities/waveform-peaks.ts';
import { useSession } from '../../session/session-context.tsx';

/**
 * A recording's waveform peaks, from the `peaks_url` of its play answer. The peaks never change once processing wrote
 * them, so they are kept while the page lives (only the link to them expires). Checked against the contract's shape.
 */
export function useWaveformPeaks(payloadReference: string, peaksUrl: string | undefined) {
  const { state } = useSession();
  return useQuery({
    queryKey: ['waveform-peaks', state.client ?? null, state.supportReference ?? null, payloadReference],
    queryFn: async ({ signal }) => {
      const response = await fetch(String(peaksUrl), { signal });
      if (!response.ok) throw new Error(`The waveform could not be fetched (HTTP ${response.status}).`);
      return WaveformPeaks.parse(await response.json());
    },
    enabled: peaksUrl !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
    retry: false,
  });
}
