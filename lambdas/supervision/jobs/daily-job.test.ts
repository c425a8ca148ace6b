import { describe, expect, it } from 'vitest';
import type { PayloadItem } from '#core/store/entities/payload.ts';
import type { SupervisionPolicyItem } from '#core/store/entities/supervision-policy.ts';
import { isSampled, samplingValue } from '#shared/supervision/sampling.ts';
import { topUpsOf, yesterdayOf } from './daily-job.ts';

const policy = (percent: number, minimum: number): SupervisionPolicyItem => ({
  policy_reference: 'daily-calls',
  kind: 'Sampling',
  is_enabled: true,
  scope: { group_conditions: [], device_user_references: [], payload_types: ['Call'] },
  terms: [],
  sample_percent: percent,
  sample_minimum: minimum,
  review_days: 7,
  sampling_seed: '5eed'.repeat(16),
  policy_version: 1,
});

const calls = Array.from({ length: 12 }, (_, index) => ({ payload_reference: `01JDAY${String(index).padStart(20, '0')}`, payload_type: 'Call' }) as PayloadItem);

describe('the daily minimum', () => {
  it('tops a person up with their unsampled recordings of lowest value, as many as are missing, the same on every run', () => {
    const rare = policy(0.1, 3);
    const values = calls.map((call) => ({ reference: call.payload_reference, value: samplingValue(rare.sampling_seed!, rare.policy_reference, call.payload_reference) }));
    const sampled = values.filter((one) => isSampled(one.value, 0.1)).length;
    const expected = values
      .filter((one) => !isSampled(one.value, 0.1))
      .sort((a, b) => a.value - b.value)
      .slice(0, 3 - sampled)
      .map((one) => one.reference);
    const chosen = topUpsOf(rare, calls);
    expect(chosen.map((one) => one.payload.payload_reference)).toEqual(expected);
    expect(chosen.every((one) => one.value === values.find((v) => v.reference === one.payload.payload_reference)!.value)).toBe(true);
    expect(topUpsOf(rare, calls)).toEqual(chosen);
  });

  it('adds nothing when the share already reached the minimum, or the person made no recording', () => {
    expect(topUpsOf(policy(100, 3), calls)).toEqual([]);
    expect(topUpsOf(policy(0.1, 3), [])).toEqual([]);
    expect(topUpsOf(policy(0.1, 0), calls)).toEqual([]);
  });

  it('tops up to at most what the person made', () => {
    expect(topUpsOf(policy(0.1, 50), calls.slice(0, 4)).length).toBe(4);
  });

  it('reads yesterday in UTC', () => {
    expect(yesterdayOf(new Date('2026-03-01T00:30:00.000Z'))).toBe('2026-02-28');
  });
});
