import { describe, expect, it } from 'vitest';
import { describeSpan, formatClock, peaksToUnit, spanOf } from './spans.ts';

describe('recording spans', () => {
  it('writes clock times as a reader expects', () => {
    expect(formatClock(7.9)).toBe('0:07');
    expect(formatClock(750)).toBe('12:30');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(-3)).toBe('0:00');
    expect(describeSpan({ start_time: 3, duration: 4 })).toBe('0:03 to 0:07 (4 s)');
  });

  it('turns a selection into whole seconds inside the recording, at least one second long', () => {
    expect(spanOf(2.4, 6.2)).toEqual({ start_time: 2, duration: 5 });
    expect(spanOf(6.2, 2.4)).toEqual({ start_time: 2, duration: 5 });
    expect(spanOf(3, 3)).toEqual({ start_time: 3, duration: 1 });
    expect(spanOf(8.5, 12, 10)).toEqual({ start_time: 8, duration: 2 });
    expect(spanOf(10, 10, 10)).toEqual({ start_time: 9, duration: 1 });
  });

  it('scales stored peaks to the unit range', () => {
    expect(peaksToUnit([0, 255, 128, 300])).toEqual([0, 1, 128 / 255, 1]);
  });
});
