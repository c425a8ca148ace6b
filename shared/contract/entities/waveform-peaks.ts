import * as z from 'zod';

/**
 * The waveform peaks of an audio recording (our addition to the spec, docs/decisions.md "Waveforms"): written by
 * processing beside the recording, fetched by the player through the `peaks_url` of a play answer. `peaks[i]` is the
 * loudest sample of bucket i, 0 to 255 of full scale; a bucket lasts 1 / peaks_per_second seconds.
 */
export const WaveformPeaks = z.object({
  version: z.literal(1),
  sample_rate: z.number().positive(),
  channels: z.int().min(1),
  /** Seconds of audio. */
  duration: z.number().min(0),
  peaks_per_second: z.number().positive(),
  peaks: z.array(z.int().min(0).max(255)),
});
export type WaveformPeaks = z.infer<typeof WaveformPeaks>;
