import { describe, expect, it } from 'vitest';
import type { MigrationResult } from '#shared/contract/entities/migrations.ts';
import { collectResultsCsv, expectedResultCount, type ResultPage } from './results-csv.ts';

const result = (row: number, extra: Partial<MigrationResult> = {}): MigrationResult => ({
  migration_reference: '01JAAAAAAAAAAAAAAAAAAAAAAA',
  row,
  kind: 'success',
  type: 'GroupAdded',
  entity: 'Group',
  reference: `group-${row}`,
  is_new_or_updated: true,
  ...extra,
});

describe('collectResultsCsv', () => {
  it('follows the cursor to the last page and writes every result once, with progress', async () => {
    const pages: Record<string, ResultPage> = {
      first: { data: [result(2), result(3)], last_key: 'k1' },
      k1: { data: [result(4, { kind: 'error', type: 'Error', entity: undefined, reference: undefined, message: 'kind: Invalid, "x"' })], last_key: 'k2' },
      k2: { data: [result(5, { reference: '=HYPERLINK("x")', is_new_or_updated: false })] },
    };
    const asked: Array<string | undefined> = [];
    const progress: number[] = [];
    const { blob, rows } = await collectResultsCsv({
      fetchPage: async (lastKey) => {
        asked.push(lastKey);
        return pages[lastKey ?? 'first']!;
      },
      onProgress: (fetched) => progress.push(fetched),
    });
    expect(asked).toEqual([undefined, 'k1', 'k2']);
    expect(progress).toEqual([2, 3, 4]);
    expect(rows).toBe(4);
    const text = await blob.text();
    expect(text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Row,Kind,Result,Entity,Reference,Message,New or updated',
      '2,success,GroupAdded,Group,group-2,,yes',
      '3,success,GroupAdded,Group,group-3,,yes',
      '4,error,Error,,,"kind: Invalid, ""x""",yes',
      `5,success,GroupAdded,Group,"'=HYPERLINK(""x"")",,no`,
      '',
    ]);
  });

  it('stops when a page hands back the cursor it was asked with', async () => {
    let calls = 0;
    const { rows } = await collectResultsCsv({
      fetchPage: async () => {
        calls += 1;
        return { data: [result(calls + 1)], last_key: 'same' };
      },
      onProgress: () => undefined,
    });
    expect(calls).toBe(2);
    expect(rows).toBe(2);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const download = collectResultsCsv({
      fetchPage: async () => {
        controller.abort();
        return { data: [result(2)], last_key: 'next' };
      },
      onProgress: () => undefined,
      signal: controller.signal,
    });
    await expect(download).rejects.toThrow('The download was stopped');
  });
});

describe('expectedResultCount', () => {
  const migration = {
    imported: [{ type: 'GroupAdded' as const, count: 2 }, { type: 'PayloadCreated' as const, count: 3 }],
    import_warnings: [{ type: 'PayloadAlreadyLoaded' as const, count: 4 }],
    import_errors: [{ type: 'Error' as const, count: 1 }],
  };
  it('sums the tallies for the filter', () => {
    expect(expectedResultCount(migration, {})).toBe(10);
    expect(expectedResultCount(migration, { kind: 'success' })).toBe(5);
    expect(expectedResultCount(migration, { type: 'PayloadAlreadyLoaded' })).toBe(4);
    expect(expectedResultCount(migration, { kind: 'success', type: 'GroupAdded' })).toBe(2);
    expect(expectedResultCount(migration, { kind: 'warning', type: 'GroupAdded' })).toBe(0);
  });
});
