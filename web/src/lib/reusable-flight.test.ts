import { describe, expect, it } from 'vitest';
import { reusableFlight } from './reusable-flight.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('reusableFlight', () => {
  it('shares one run between callers while it is in flight', async () => {
    const gate = deferred<string>();
    let runs = 0;
    const flight = reusableFlight(() => {
      runs += 1;
      return gate.promise;
    });
    const first = flight();
    const second = flight();
    expect(second).toBe(first);
    gate.resolve('profile');
    expect(await Promise.all([first, second])).toEqual(['profile', 'profile']);
    expect(runs).toBe(1);
  });

  it('reuses the outcome for 1000 ms after it settles, then runs again', async () => {
    let clock = 0;
    let runs = 0;
    const flight = reusableFlight(async () => ++runs, { now: () => clock });
    expect(await flight()).toBe(1);
    clock = 999;
    expect(await flight()).toBe(1);
    clock = 1000;
    expect(await flight()).toBe(2);
  });

  it('reuses a failure inside the window too, so a failing refresh is not hammered', async () => {
    let clock = 0;
    let runs = 0;
    const flight = reusableFlight(
      async () => {
        runs += 1;
        throw new Error('refresh refused');
      },
      { now: () => clock },
    );
    await expect(flight()).rejects.toThrow('refresh refused');
    await expect(flight()).rejects.toThrow('refresh refused');
    expect(runs).toBe(1);
    clock = 5000;
    await expect(flight()).rejects.toThrow('refresh refused');
    expect(runs).toBe(2);
  });

  it('runs afresh after reset', async () => {
    let runs = 0;
    const flight = reusableFlight(async () => ++runs);
    await flight();
    flight.reset();
    expect(await flight()).toBe(2);
  });
});
