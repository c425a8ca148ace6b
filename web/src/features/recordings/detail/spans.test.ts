import { describe, expect, it } from 'vitest';
import { describeSpan, formatClock, peaksToUnit, spanOf } from './spans.ts';

describe('recording spans', () => {
  it('writes clock times by the one duration rule (nearest second)', () => {
    expect(formatClock(7.4)).toBe('0:07');
    expect(formatClock(9.95)).toBe('0:10');
    expect(formatClock(750)).toBe('12:30');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('describes a span to the tenth it is kept to', () => {
    expect(describeSpan({ start_time: 6.2, duration: 2.9 })).toBe('0:06.2 to 0:09.1 (2.9 s)');
    expect(describeSpan({ start_time: 3, duration: 4 })).toBe('0:03.0 to 0:07.0 (4 s)');
  });

  it('keeps a drawn region to the nearest tenth of a second, never widened to whole seconds', () => {
    // The drags that were saved as 5 to 10 s and 1 to 6 s.
    expect(spanOf(6.03, 9.02)).toEqual({ start_time: 6, duration: 3 });
    expect(spanOf(2.04, 4.97)).toEqual({ start_time: 2, duration: 3 });
    expect(spanOf(2.44, 6.16)).toEqual({ start_time: 2.4, duration: 3.8 });
    expect(spanOf(6.16, 2.44)).toEqual({ start_time: 2.4, duration: 3.8 });
  });

  it('gives exact decimals the contract accepts', () => {
    const span = spanOf(0.1 + 0.2, 0.7 + 0.1);
    expect(span).toEqual({ start_time: 0.3, duration: 0.5 });
    expect(String(span.start_time)).toBe('0.3');
  });

  it('keeps a span at least a tenth long and inside the recording', () => {
    expect(spanOf(3, 3)).toEqual({ start_time: 3, duration: 0.1 });
    expect(spanOf(8.5, 12, 10)).toEqual({ start_time: 8.5, duration: 1.5 });
    expect(spanOf(10, 10, 10)).toEqual({ start_time: 9.9, duration: 0.1 });
    expect(spanOf(9.2, 9.97, 9.95)).toEqual({ start_time: 9.2, duration: 0.8 });
    expect(spanOf(-1, 2)).toEqual({ start_time: 0, duration: 2 });
  });

  it('scales stored peaks to the unit range', () => {
    expect(peaksToUnit([0, 255, 128, 300])).toEqual([0, 1, 128 / 255, 1]);
  });
});
