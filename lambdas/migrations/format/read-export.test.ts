import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readExportRows, type ParsedRow } from './index.ts';

const HEADER = JSON.stringify({ kind: 'verity-legacy-export', version: 1 });

async function* chunksOf(text: string | Buffer, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield new Uint8Array(bytes.subarray(at, at + size));
}

async function readAll(text: string | Buffer, maxMediaBytes?: number, size?: number): Promise<ParsedRow[]> {
  const rows: ParsedRow[] = [];
  for await (const row of readExportRows(chunksOf(text, size), maxMediaBytes === undefined ? {} : { maxMediaBytes })) rows.push(row);
  return rows;
}

const media = Buffer.from('RIFF fake wav bytes');
const checksum = createHash('sha256').update(media).digest('hex');
const recording = (overrides: Record<string, unknown> = {}) => ({
  kind: 'recording',
  legacy_payload_reference: 'legacy-1',
  payload_type: 'Call',
  legacy_state: 'Processed',
  device_reference: 'dev-1',
  meta: { payload_time: '2024-05-01 10:00:00', second_parties: [{ phone_number: '+447700900001', direction: 'O' }] },
  checksum,
  media: { content_type: 'audio/wav', data: media.toString('base64') },
  ...overrides,
});

describe('readExportRows', () => {
  it('numbers rows by line, skips blank lines and reads every kind', async () => {
    const lines = [
      HEADER,
      JSON.stringify({ kind: 'group', group_reference: 'sales' }),
      '',
      JSON.stringify({ kind: 'device_user', device_user_reference: 'u-1', group: 'sales', services: ['calls'], is_active: true }),
      JSON.stringify({ kind: 'device', device_reference: 'dev-1', device_user_reference: 'u-1', is_deactivated: false, activated_at: '2023-01-01T00:00:00' }),
      JSON.stringify(recording()),
    ];
    const rows = await readAll(`${lines.join('\r\n')}\n`);
    expect(rows.map((row) => [row.row, row.ok])).toEqual([
      [2, true],
      [4, true],
      [5, true],
      [6, true],
    ]);
    const device = rows[2];
    expect(device?.ok && device.value.kind === 'device' && device.value.activated_at).toBe('2023-01-01T00:00:00.000Z');
    const call = rows[3];
    if (!call?.ok || call.value.kind !== 'recording') throw new Error('recording not read');
    expect(call.value.payload_time).toBe('2024-05-01T10:00:00.000Z');
    expect(call.value.media?.bytes.equals(media)).toBe(true);
    expect(call.value.checksum).toBe(checksum);
  });

  it('passes over the rows up to skipThrough unparsed, still checking the header', async () => {
    const lines = [HEADER, '{"kind": "group", "group_reference": ', JSON.stringify({ kind: 'group', group_reference: 'kept' }), 'not json either'];
    const rows: ParsedRow[] = [];
    for await (const row of readExportRows(chunksOf(`${lines.join('\n')}\n`), { skipThrough: 2 })) rows.push(row);
    expect(rows.map((row) => [row.row, row.ok])).toEqual([
      [3, true],
      [4, false],
    ]);
    const notExport: ParsedRow[] = [];
    for await (const row of readExportRows(chunksOf('name,phone\nx,y\n'), { skipThrough: 5 })) notExport.push(row);
    expect(notExport).toMatchObject([{ row: 1, type: 'UnknownFile' }]);
  });

  it('reports a file that is not an export as UnknownFile on row 1 and reads nothing else', async () => {
    const rows = await readAll(`name,phone\n${JSON.stringify({ kind: 'group', group_reference: 'sales' })}\n`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ row: 1, ok: false, type: 'UnknownFile' });
    expect(await readAll('')).toMatchObject([{ row: 1, ok: false, type: 'UnknownFile' }]);
    expect(await readAll(`${JSON.stringify({ kind: 'verity-legacy-export', version: 2 })}\n`)).toMatchObject([{ row: 1, type: 'UnknownFile' }]);
  });

  it('gives hostile rows an error with path: message problems and goes on reading', async () => {
    const bad = [
      HEADER,
      '{"kind": "group", "group_reference": ',
      JSON.stringify({ kind: 'payment', amount: 1 }),
      JSON.stringify({ kind: 'group', group_reference: 'x'.repeat(300) }),
      JSON.stringify({ kind: 'device_user', device_user_reference: 'u,1', group: 'g1', services: [], is_active: 'yes', colour: 'red' }),
      JSON.stringify(recording({ checksum: 'a'.repeat(64) })),
      JSON.stringify(recording({ media: { content_type: 'audio/wav', data: 'not base64!' } })),
      JSON.stringify(recording({ meta: { payload_time: 'yesterday', second_parties: [] } })),
      JSON.stringify(recording({ legacy_state: 'Recorded' })),
      '[1,2,3]',
      JSON.stringify({ kind: 'group', group_reference: 'fine' }),
    ];
    const rows = await readAll(Buffer.concat([Buffer.from(`${bad.join('\n')}\n`), Buffer.from([0xff, 0xfe, 0x0a])]));
    const failures = rows.filter((row): row is Extract<ParsedRow, { ok: false }> => !row.ok);
    expect(failures.map((row) => row.row)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 12]);
    expect(failures.every((row) => row.type === 'Error')).toBe(true);
    const problemsOf = (row: number) => failures.find((failure) => failure.row === row)?.problems.join(' | ') ?? '';
    expect(problemsOf(2)).toMatch(/^Not valid JSON/);
    expect(problemsOf(3)).toBe('kind: Must be one of: group, device_user, device, recording');
    expect(problemsOf(4)).toBe('group_reference: Must be between 2 and 255 characters');
    expect(problemsOf(5)).toContain('device_user_reference: Cannot start with leading space, cannot contain a comma');
    expect(problemsOf(5)).toContain('colour: This field is not allowed.');
    expect(problemsOf(6)).toMatch(/^checksum: Does not match the media/);
    expect(problemsOf(7)).toBe('media.data: Must be base64 text');
    expect(problemsOf(8)).toContain('meta.payload_time');
    expect(problemsOf(8)).toContain('meta.second_parties');
    expect(problemsOf(9)).toContain('media: A Recorded recording was never uploaded');
    expect(problemsOf(10)).toBe('Must be a JSON object');
    expect(problemsOf(12)).toBe('Not UTF-8 text');
    expect(failures.find((row) => row.row === 6)).toMatchObject({ kind: 'recording', reference: 'legacy-1' });
    expect(rows.find((row) => row.row === 11)).toMatchObject({ ok: true });
  });

  it('refuses media over the cap, and skips a line past the line cap without holding it', async () => {
    const big = Buffer.alloc(4096, 1);
    const over = recording({ checksum: createHash('sha256').update(big).digest('hex'), media: { content_type: 'audio/wav', data: big.toString('base64') } });
    const huge = `{"kind":"recording","pad":"${'x'.repeat(3 * 1024 * 1024)}"}`;
    const rows = await readAll(`${HEADER}\n${JSON.stringify(over)}\n${huge}\n${JSON.stringify({ kind: 'group', group_reference: 'after' })}`, 1024, 64 * 1024);
    expect(rows).toMatchObject([
      { row: 2, ok: false, problems: ['media.data: Larger than the 1 KiB of media a row may carry'] },
      { row: 3, ok: false, type: 'Error' },
      { row: 4, ok: true },
    ]);
    expect((rows[1] as Extract<ParsedRow, { ok: false }>).problems[0]).toMatch(/^The row is 3145\d+ bytes, longer than/);
  });
});
