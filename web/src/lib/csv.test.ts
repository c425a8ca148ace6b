import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

describe('csv', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12)).toBe('12');
  });

  it('defuses spreadsheet formulas in text but leaves negative numbers alone', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+44 7700 900123')).toBe("'+44 7700 900123");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes a header and one CRLF line per row', () => {
    const text = toCsv(
      [
        { header: 'Device', value: (row: { name: string; count: number }) => row.name },
        { header: 'Count', value: (row) => row.count },
      ],
      [
        { name: 'Pixel 8', count: 3 },
        { name: 'Galaxy, S24', count: 0 },
      ],
    );
    expect(text).toBe('Device,Count\r\nPixel 8,3\r\n"Galaxy, S24",0\r\n');
  });
});
