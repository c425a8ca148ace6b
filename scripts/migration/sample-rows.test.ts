import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readExportRows, type ParsedRow } from '../../lambdas/migrations/format/index.ts';
import { craftedExport, sampleExportLines } from './sample-rows.ts';

async function* bytesOf(lines: Iterable<string>): AsyncGenerator<Uint8Array> {
  for (const line of lines) yield Buffer.from(line, 'utf8');
}

async function parse(lines: Iterable<string>): Promise<ParsedRow[]> {
  const rows: ParsedRow[] = [];
  for await (const row of readExportRows(bytesOf(lines))) rows.push(row);
  return rows;
}

const digest = (lines: Iterable<string>) => {
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line);
  return hash.digest('hex');
};

describe('sample exports', () => {
  it('are deterministic, of the size asked, and read without a problem', async () => {
    expect(digest(sampleExportLines({ rows: 300 }))).toBe(digest(sampleExportLines({ rows: 300 })));
    expect(digest(sampleExportLines({ rows: 300, mediaBytes: 200 }))).not.toBe(digest(sampleExportLines({ rows: 300 })));
    const rows = await parse(sampleExportLines({ rows: 300, mediaBytes: 200 }));
    expect(rows).toHaveLength(300);
    expect(rows.filter((row) => !row.ok)).toEqual([]);
    const kinds = rows.map((row) => (row.ok ? row.value.kind : 'bad'));
    expect(kinds.filter((kind) => kind === 'group')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'device_user')).toHaveLength(6);
    expect(kinds.filter((kind) => kind === 'device')).toHaveLength(6);
    expect(kinds.filter((kind) => kind === 'recording')).toHaveLength(287);
  });

  it('the crafted export reads as its table says: parse errors only where an Error is expected from the file itself', async () => {
    const crafted = craftedExport();
    const rows = await parse(crafted.map((entry) => entry.line));
    expect(rows).toHaveLength(crafted.length - 1);
    const refused = rows.filter((row) => !row.ok).map((row) => row.row);
    // The tampered checksum and the broken JSON: refused by the reader, whatever the tenant holds.
    expect(refused).toEqual([crafted.length - 1, crafted.length]);
    for (const row of refused) expect(crafted[row - 1]?.first).toBe('Error');
  });
});
