/**
 * The maths behind the SVG charts, kept pure (no DOM, no React) so it is unit-tested on its own.
 *
 * Axes always start at 0: the charts show counts, and a bar or line cut off at a non-zero baseline misleads.
 */

/** The smallest "nice" step (1, 2 or 5 times a power of ten) at least `rough`. */
export function niceStep(rough: number): number {
  if (!Number.isFinite(rough) || rough <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  // Small tolerance: 0.30000000000000004 / 0.1 must read as 3, not a hair over it.
  const nice = fraction <= 1 + 1e-9 ? 1 : fraction <= 2 + 1e-9 ? 2 : fraction <= 5 + 1e-9 ? 5 : 10;
  return nice * power;
}

export interface NiceScale {
  /** The axis top: a multiple of `step`, at least the largest value (1 when every value is 0). */
  max: number;
  step: number;
  /** 0, step, 2·step … max. */
  ticks: number[];
}

/**
 * An axis from 0 to a round number above `maxValue`, with about `tickCount` intervals. Counts are whole, so the step
 * never drops below 1 when `integer` is set (the default): an axis reading 0, 0.5, 1 for counts would be odd.
 */
export function niceScale(maxValue: number, tickCount = 4, integer = true): NiceScale {
  const top = Number.isFinite(maxValue) && maxValue > 0 ? maxValue : 0;
  const intervals = Math.max(1, Math.floor(tickCount));
  let step = niceStep(top / intervals);
  if (integer) step = Math.max(1, step);
  const max = Math.max(step, Math.ceil(top / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let index = 0; index * step <= max + step / 1e6; index += 1) ticks.push(round(index * step));
  return { max: round(max), step, ticks };
}

/** Maps [0, domainMax] onto [0, size] linearly; values outside the domain are clamped so nothing draws off the chart. */
export function linearScale(domainMax: number, size: number): (value: number) => number {
  if (!(domainMax > 0)) return () => 0;
  return (value) => (Math.min(Math.max(Number.isFinite(value) ? value : 0, 0), domainMax) / domainMax) * size;
}

export interface Band {
  /** Where the band's bar starts along the band axis. */
  start: number;
  /** The bar's thickness. */
  size: number;
  /** The band's centre (for labels). */
  centre: number;
}

/**
 * Splits `size` into `count` equal bands, each bar taking the band less `padding` (a fraction 0 to <1 of the band)
 * split evenly on both sides.
 */
export function bands(count: number, size: number, padding = 0.25): Band[] {
  if (count <= 0 || size <= 0) return [];
  const pad = Math.min(Math.max(padding, 0), 0.9);
  const band = size / count;
  return Array.from({ length: count }, (_, index) => {
    const start = index * band + (band * pad) / 2;
    return { start, size: band * (1 - pad), centre: index * band + band / 2 };
  });
}

/**
 * X positions of `count` evenly spaced points across `size` (a line chart's periods): the first at 0, the last at
 * `size`; a single point sits in the middle.
 */
export function pointPositions(count: number, size: number): number[] {
  if (count <= 0) return [];
  if (count === 1) return [size / 2];
  return Array.from({ length: count }, (_, index) => (index * size) / (count - 1));
}

/** An SVG path through the points, `M x y L x y …`; empty for no points. Coordinates are rounded to 0.01. */
export function linePath(points: readonly (readonly [number, number])[]): string {
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${round(x)} ${round(y)}`).join(' ');
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
