import { createHmac } from 'node:crypto';

/**
 * Sampling's reproducible choice (backend only: node:crypto; the lexicon engine beside it stays free of Node APIs).
 *
 * A recording's value for a policy is HMAC-SHA256, keyed by the policy's `sampling_seed`, of
 * `<policy_reference>:<payload_reference>`; its first 8 bytes read as an unsigned 64-bit big-endian number and
 * divided by 2^64 give a number in [0, 1). The recording is sampled when that number is below the policy's share.
 * The same seed and references give the same value on every run, so a choice can be re-computed and explained, while
 * nobody without the seed can tell in advance which recordings will be reviewed. A new seed draws a new sample.
 *
 * The quotient is taken over the top 53 of the 64 bits (exactly what a double holds), so it is the exact 64-bit
 * quotient rounded down to a double and can never round up to 1.
 */
const TWO_TO_53 = 2 ** 53;

/** The recording's sampling value for a policy, in [0, 1). */
export function samplingValue(seed: string, policyReference: string, payloadReference: string): number {
  const digest = createHmac('sha256', seed).update(`${policyReference}:${payloadReference}`).digest();
  return Number(digest.readBigUInt64BE(0) >> 11n) / TWO_TO_53;
}

/** Whether a value falls in a share of `samplePercent` % (0 samples nothing, 100 everything). */
export function isSampled(value: number, samplePercent: number): boolean {
  return value < samplePercent / 100;
}

/**
 * The daily top-up to "at least N per person per day": when a person has fewer than `minimum` sampled recordings that
 * day, their unsampled recordings with the lowest values, as many as are missing (ties by reference, so the choice is
 * reproducible). `candidates` are that person's unsampled recordings of the day.
 */
export function topUpChoice<T extends { readonly payload_reference: string; readonly value: number }>(
  candidates: readonly T[],
  sampledCount: number,
  minimum: number,
): T[] {
  const missing = Math.max(0, minimum - sampledCount);
  if (missing === 0) return [];
  return [...candidates]
    .sort((a, b) => a.value - b.value || (a.payload_reference < b.payload_reference ? -1 : a.payload_reference > b.payload_reference ? 1 : 0))
    .slice(0, missing);
}
