import { describe, expect, it } from 'vitest';
import { inParallel } from './in-parallel.ts';

describe('inParallel', () => {
  it('answers in the entries order with at most the given number under way', async () => {
    let running = 0;
    let most = 0;
    const answers = await inParallel([5, 1, 4, 2, 3], 2, async (value, index) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, value));
      running -= 1;
      return `${index}:${value}`;
    });
    expect(answers).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(most).toBe(2);
  });

  it('starts nothing after a failure and throws it once the ones under way settle', async () => {
    const started: number[] = [];
    const run = inParallel([1, 2, 3, 4, 5, 6], 2, async (value) => {
      started.push(value);
      if (value === 2) throw new Error('two failed');
      await new Promise((resolve) => setTimeout(resolve, 5));
      return value;
    });
    await expect(run).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2]);
  });
});
