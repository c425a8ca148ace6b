import { describe, expect, it } from 'vitest';
import { bands, linePath, linearScale, niceScale, niceStep, pointPositions } from './scale.ts';

describe('niceStep', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(0.7)).toBe(1);
    expect(niceStep(1)).toBe(1);
    expect(niceStep(1.2)).toBe(2);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(7)).toBe(10);
    expect(niceStep(23)).toBe(50);
    expect(niceStep(0.3)).toBe(0.5);
    expect(niceStep(1000)).toBe(1000);
  });

  it('falls back to 1 for nothing or nonsense', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(-3)).toBe(1);
    expect(niceStep(Number.NaN)).toBe(1);
  });
});

describe('niceScale', () => {
  it('puts the top at a round number at or above the largest value', () => {
    expect(niceScale(5)).toEqual({ max: 6, step: 2, ticks: [0, 2, 4, 6] });
    expect(niceScale(8)).toEqual({ max: 8, step: 2, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(95)).toEqual({ max: 100, step: 50, ticks: [0, 50, 100] });
    expect(niceScale(1234).max).toBe(1500);
  });

  it('keeps whole steps for counts, and a visible axis when everything is 0', () => {
    expect(niceScale(1)).toEqual({ max: 1, step: 1, ticks: [0, 1] });
    expect(niceScale(0)).toEqual({ max: 1, step: 1, ticks: [0, 1] });
    expect(niceScale(-5).max).toBe(1);
  });

  it('allows fractional steps when asked', () => {
    expect(niceScale(1, 4, false)).toEqual({ max: 1, step: 0.5, ticks: [0, 0.5, 1] });
  });
});

describe('linearScale', () => {
  it('maps the domain onto the range and clamps outside values', () => {
    const scale = linearScale(10, 200);
    expect(scale(0)).toBe(0);
    expect(scale(5)).toBe(100);
    expect(scale(10)).toBe(200);
    expect(scale(20)).toBe(200);
    expect(scale(-1)).toBe(0);
    expect(scale(Number.NaN)).toBe(0);
  });

  it('maps everything to 0 on an empty domain', () => {
    expect(linearScale(0, 100)(5)).toBe(0);
  });
});

describe('bands', () => {
  it('splits the size evenly with padding on both sides of each bar', () => {
    expect(bands(2, 100, 0.2)).toEqual([
      { start: 5, size: 40, centre: 25 },
      { start: 55, size: 40, centre: 75 },
    ]);
  });

  it('gives nothing for no bands', () => {
    expect(bands(0, 100)).toEqual([]);
    expect(bands(3, 0)).toEqual([]);
  });
});

describe('pointPositions and linePath', () => {
  it('spreads points from edge to edge, one point in the middle', () => {
    expect(pointPositions(3, 100)).toEqual([0, 50, 100]);
    expect(pointPositions(1, 100)).toEqual([50]);
    expect(pointPositions(0, 100)).toEqual([]);
  });

  it('draws a path through the points', () => {
    expect(linePath([[0, 10], [50, 5.123], [100, 0]])).toBe('M0 10 L50 5.12 L100 0');
    expect(linePath([])).toBe('');
  });
});
