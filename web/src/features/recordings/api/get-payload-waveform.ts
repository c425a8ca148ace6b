import { useQuery } from '@tanstack/react-query';
import { payloadEndpoints } from '#shared/contract/endpoints/payloads.ts';
import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { WaveformPeaks } from '#shared/contract/entities/waveform-peaks.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../lib/session/session-context.tsx';

/** `GET payloads/{ref}/waveform`: a link to the recording's peaks; derived data, so no play is recorded. */
export const getPayloadWaveform = endpointOf(payloadEndpoints, 'client.payloads.waveform');

/**
 * A recording's waveform peaks, asked for when the player shows: the waveform is drawn before any audio is asked for,
 * and reading it is the call's activity record, never a "Played". The peaks never change once processing wrote them,
 * so they are kept while the page lives (only the link to them expires). `null` when the recording has none (not a
 * PCM WAV: it plays without a waveform). Checked against the contract's shape.
 */
export function useWaveformPeaks(payloadReference: string, enabled: boolean) {
  const { session, state } = useSession();
  return useQuery({
    queryKey: ['waveform-peaks', state.client ?? null, state.supportReference ?? null, payloadReference],
    queryFn: async ({ signal }) => {
      let peaksUrl: string;
      try {
        peaksUrl = (await session.call(getPayloadWaveform, { params: { payload_reference: payloadReference } }, signal)).peaks_url;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
      const response = await fetch(peaksUrl, { signal });
      if (!response.ok) throw new Error(`The waveform could not be fetched (HTTP ${response.status}).`);
      return WaveformPeaks.parse(await response.json());
    },
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}
