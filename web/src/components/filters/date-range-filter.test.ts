import { describe, expect, it } from 'vitest';
import { parseTypedDay } from './date-range-filter.tsx';

describe('parseTypedDay', () => {
  it('reads British day-first forms and ISO days as YYYY-MM-DD', () => {
    expect(parseTypedDay('21/11/2026')).toBe('2026-11-21');
    expect(parseTypedDay('1/2/2026')).toBe('2026-02-01');
    expect(parseTypedDay(' 03.04.2026 ')).toBe('2026-04-03');
    expect(parseTypedDay('2026-11-21')).toBe('2026-11-21');
  });

  it('refuses days that do not exist, month-first days and junk', () => {
    for (const text of ['31/02/2026', '11/21/2026', '2026-13-01', 'tomorrow', '', '21/11/26']) expect(parseTypedDay(text), text).toBeNull();
  });
});
