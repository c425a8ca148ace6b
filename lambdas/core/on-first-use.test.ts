import { describe, expect, it } from 'vitest';
import { onFirstUse } from './on-first-use.ts';

describe('onFirstUse', () => {
  it('builds nothing until first asked, then builds once and hands back the same value', () => {
    let builds = 0;
    const value = onFirstUse(() => {
      builds += 1;
      return { built: builds };
    });
    expect(builds).toBe(0);
    const first = value();
    expect(first).toEqual({ built: 1 });
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it('keeps a built undefined instead of building again', () => {
    let builds = 0;
    const value = onFirstUse(() => {
      builds += 1;
      return undefined;
    });
    expect(value()).toBeUndefined();
    expect(value()).toBeUndefined();
    expect(builds).toBe(1);
  });

  it('builds again after a build that threw, so a failure is not kept', () => {
    let builds = 0;
    const value = onFirstUse(() => {
      builds += 1;
      if (builds === 1) throw new Error('first build fails');
      return 'built';
    });
    expect(() => value()).toThrow('first build fails');
    expect(value()).toBe('built');
  });
});
