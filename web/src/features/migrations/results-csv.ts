import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationResult, MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';
import { csvCell, type CsvColumn } from '../../lib/csv.ts';
import { kindOfType } from './migration-labels.ts';
import { outcomeTotalsOf } from './migration-progress.ts';

/** The columns of the results download: what the table shows, with the wire values a spreadsheet can filter on. */
export const RESULT_CSV_COLUMNS: readonly CsvColumn<MigrationResult>[] = [
  { header: 'Row', value: (result) => result.row },
  { header: 'Kind', value: (result) => result.kind },
  { header: 'Result', value: (result) => result.type },
  { header: 'Entity', value: (result) => result.entity },
  { header: 'Reference', value: (result) => result.reference },
  { header: 'Message', value: (result) => result.message },
  { header: 'New or updated', value: (result) => (result.is_new_or_updated ? 'yes' : 'no') },
];

/** One page of results as the API answers it. */
export interface ResultPage {
  data: readonly MigrationResult[];
  last_key?: string;
}

/** How many results a filter should give, from the migration's tallies (no counting of items). */
export function expectedResultCount(
  migration: Pick<LegacyMigration, 'imported' | 'import_warnings' | 'import_errors'>,
  filter: { kind?: MigrationResultKind; type?: MigrationResultType },
): number {
  if (filter.type !== undefined) {
    // A type of another kind than the kind asked for gives nothing (the API answers an empty list).
    if (filter.kind !== undefined && kindOfType(filter.type) !== filter.kind) return 0;
    const issues = [...migration.imported, ...migration.import_warnings, ...migration.import_errors];
    return issues.filter((issue) => issue.type === filter.type).reduce((total, issue) => total + (issue.count ?? 0), 0);
  }
  const totals = outcomeTotalsOf(migration);
  return filter.kind === undefined ? totals.success + totals.warning + totals.error : totals[filter.kind];
}

/**
 * Every result (of the filter) as CSV, fetched page by page with the cursor: each page is turned into text at once and
 * kept as a part of the Blob, so the answer objects of a large import are never all held together.
 */
export async function collectResultsCsv(options: {
  fetchPage: (lastKey: string | undefined, signal?: AbortSignal) => Promise<ResultPage>;
  onProgress: (fetched: number) => void;
  signal?: AbortSignal;
}): Promise<{ blob: Blob; rows: number }> {
  const parts: string[] = ['\uFEFF', `${RESULT_CSV_COLUMNS.map((column) => csvCell(column.header)).join(',')}\r\n`];
  let rows = 0;
  let lastKey: string | undefined;
  do {
    if (options.signal?.aborted) throw new DOMException('The download was stopped', 'AbortError');
    const page = await options.fetchPage(lastKey, options.signal);
    if (page.data.length > 0) {
      parts.push(page.data.map((result) => `${RESULT_CSV_COLUMNS.map((column) => csvCell(column.value(result))).join(',')}\r\n`).join(''));
    }
    rows += page.data.length;
    options.onProgress(rows);
    // A page that moves the cursor nowhere would loop for ever: stop rather than ask again.
    lastKey = page.last_key !== undefined && page.last_key !== lastKey ? page.last_key : undefined;
  } while (lastKey !== undefined);
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }), rows };
}

/** Offers a Blob as a file download. */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
