import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSampled, samplingValue, topUpChoice } from './sampling.ts';

const references = Array.from({ length: 10_000 }, (_, index) => `pay_${index.toString(36).padStart(6, '0')}`);
const chosen = (seed: string, percent: number) => references.filter((reference) => isSampled(samplingValue(seed, 'pol_calls', reference), percent));

describe('sampling by keyed hash', () => {
  it('is the first 8 bytes of HMAC-SHA256(seed, "<policy>:<payload>") over 2^64', () => {
    const digest = createHmac('sha256', 'seed-1').update('pol_calls:pay_000001').digest();
    const exact = Number(digest.readBigUInt64BE(0)) / 2 ** 64;
    const value = samplingValue('seed-1', 'pol_calls', 'pay_000001');
    expect(Math.abs(value - exact)).toBeLessThan(2 ** -52);
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThan(1);
  });

  // Tolerance: at 5 % of 10,000 the count is binomial with a standard deviation of about 22 (0.22 %), so 4.0-6.0 %
  // is more than four standard deviations either side; the values are fixed by the seed, so this never flakes.
  it('picks 5 % of 10,000 recordings within 4.0-6.0 %, the same ones on a re-run, others with another seed', () => {
    const first = chosen('seed-1', 5);
    expect(first.length / references.length).toBeGreaterThanOrEqual(0.04);
    expect(first.length / references.length).toBeLessThanOrEqual(0.06);
    expect(chosen('seed-1', 5)).toEqual(first);
    const other = chosen('seed-2', 5);
    expect(other.length / references.length).toBeGreaterThanOrEqual(0.04);
    expect(other.length / references.length).toBeLessThanOrEqual(0.06);
    const shared = other.filter((reference) => first.includes(reference)).length;
    // Independent 5 % samples share about 5 % of each other (25 of 500); far from the same set.
    expect(shared).toBeLessThan(first.length * 0.15);
  });

  it('keys the value by policy as well: another policy with the same seed picks others', () => {
    const [a, b] = [samplingValue('seed-1', 'pol_a', 'pay_1'), samplingValue('seed-1', 'pol_b', 'pay_1')];
    expect(a).not.toBe(b);
  });

  it('samples nothing at 0 %, everything at 100 %, and a larger share keeps the smaller share\'s picks', () => {
    expect(chosen('seed-1', 0)).toEqual([]);
    expect(chosen('seed-1', 100)).toHaveLength(references.length);
    const five = chosen('seed-1', 5);
    const ten = chosen('seed-1', 10);
    expect(five.every((reference) => ten.includes(reference))).toBe(true);
    expect(ten.length / references.length).toBeGreaterThanOrEqual(0.085);
    expect(ten.length / references.length).toBeLessThanOrEqual(0.115);
  });

  it('tops a person\'s day up to the minimum with the lowest unsampled values, reproducibly', () => {
    const candidates = [
      { payload_reference: 'pay_c', value: 0.7 },
      { payload_reference: 'pay_b', value: 0.2 },
      { payload_reference: 'pay_a', value: 0.2 },
      { payload_reference: 'pay_d', value: 0.9 },
    ];
    expect(topUpChoice(candidates, 0, 2).map((candidate) => candidate.payload_reference)).toEqual(['pay_a', 'pay_b']);
    expect(topUpChoice(candidates, 1, 2).map((candidate) => candidate.payload_reference)).toEqual(['pay_a']);
    expect(topUpChoice(candidates, 2, 2)).toEqual([]);
    expect(topUpChoice(candidates, 0, 10)).toHaveLength(4);
    expect(candidates[0]?.payload_reference).toBe('pay_c');
  });
});
