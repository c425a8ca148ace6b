import type { ImportJobDependencies, RowImporterFactory } from '../../lambdas/migrations/job/import-job.ts';
import { formatTable } from './measure.ts';

/**
 * Where the import's time goes (`npm run bench -- migration --profile`): every call the job and its row importer make
 * on the table, the buckets, the key service and the scanner, counted and timed per port method and per kind of rows
 * being imported, plus the importer's own time per kind. Calls made while several rows are in hand (a batch) are put
 * down to the batch's kinds joined (`device_user+recording`); calls outside any row to `job`.
 */
export interface MigrationProfile {
  deps: ImportJobDependencies;
  importer: RowImporterFactory;
  report(): string;
}

type Tally = { calls: number; ms: number };

export function profileMigration(deps: ImportJobDependencies, createImporter: RowImporterFactory): MigrationProfile {
  let phase = 'job';
  const calls = new Map<string, Tally>();
  const rows = new Map<string, Tally & { rows: number }>();
  const tally = <T extends Tally>(map: Map<string, T>, key: string, fresh: () => T) => {
    let entry = map.get(key);
    if (entry === undefined) map.set(key, (entry = fresh()));
    return entry;
  };

  const timed = <P extends object>(port: string, target: P): P =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value = Reflect.get(object, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const entry = tally(calls, `${phase}\u0000${port}.${String(name)}`, () => ({ calls: 0, ms: 0 }));
          const started = performance.now();
          const done = () => {
            entry.calls += 1;
            entry.ms += performance.now() - started;
          };
          const result = (value as (...a: unknown[]) => unknown).apply(object, args);
          if (result instanceof Promise) return result.finally(done);
          done();
          return result;
        };
      },
    });

  const wrapped: ImportJobDependencies = {
    ...deps,
    table: timed('table', deps.table),
    blobs: timed('blobs', deps.blobs),
    keys: timed('keys', deps.keys),
    scanner: timed('scanner', deps.scanner),
  };

  const importer: RowImporterFactory = (importerDeps, options) => {
    const inner = createImporter({ ...importerDeps, table: wrapped.table, blobs: wrapped.blobs, keys: wrapped.keys, scanner: wrapped.scanner }, options);
    const around = async <T>(kinds: string, count: number, work: () => Promise<T>): Promise<T> => {
      phase = kinds;
      const started = performance.now();
      try {
        return await work();
      } finally {
        const entry = tally(rows, kinds, () => ({ calls: 0, ms: 0, rows: 0 }));
        entry.calls += 1;
        entry.rows += count;
        entry.ms += performance.now() - started;
        phase = 'job';
      }
    };
    return {
      importRow: (row, rowNumber) => around(row.kind, 1, () => inner.importRow(row, rowNumber)),
      ...(inner.importRows === undefined
        ? {}
        : {
            importRows: (batch: Parameters<NonNullable<typeof inner.importRows>>[0]) =>
              around([...new Set(batch.map((entry) => entry.value.kind))].sort().join('+'), batch.length, () => inner.importRows!(batch)),
          }),
      finish: () => around('finish', 0, () => inner.finish()),
    };
  };

  const report = () => {
    const byKind = [...rows.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const kindTable = formatTable(
      ['rows of kind', 'rows', 'calls', 'total s', 'ms per row'],
      byKind.map(([kind, entry]) => [kind, String(entry.rows), String(entry.calls), (entry.ms / 1000).toFixed(1), entry.rows === 0 ? '' : (entry.ms / entry.rows).toFixed(2)]),
    );
    const rowsOf = (kind: string) => rows.get(kind)?.rows ?? 0;
    const callTable = formatTable(
      ['during', 'port call', 'calls', 'total s', 'ms per call', 'calls per row'],
      [...calls.entries()]
        .sort((a, b) => b[1].ms - a[1].ms)
        .map(([key, entry]) => {
          const [kind, call] = key.split('\u0000') as [string, string];
          const perRow = rowsOf(kind) === 0 ? '' : (entry.calls / rowsOf(kind)).toFixed(2);
          return [kind, call, String(entry.calls), (entry.ms / 1000).toFixed(1), (entry.ms / entry.calls).toFixed(2), perRow];
        }),
    );
    return `${kindTable}\n\n${callTable}`;
  };

  return { deps: wrapped, importer, report };
}
