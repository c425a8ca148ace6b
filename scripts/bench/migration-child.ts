import { createReadStream } from 'node:fs';
import { buildDependencies } from '#core/composition.ts';
import { loadConfig } from '#core/config.ts';
import { readExportRows } from '../../lambdas/migrations/format/index.ts';
import { createRowImporter, type RowImporter } from '../../lambdas/migrations/import/index.ts';
import { runMigrationImport } from '../../lambdas/migrations/job/index.ts';
import { profileMigration } from './migration-profile.ts';

/**
 * A row importer that writes nothing and answers one result per row: the job's own work (streaming, scanning, parsing,
 * result items, checkpoints) without the row importer's, to tell the two apart.
 */
const resultsOnly = (): RowImporter => ({
  importRow: async (row, rowNumber) => [
    { row: rowNumber, kind: 'success', type: 'NoChangeToGroup', entity: 'Group', reference: row.kind, isNewOrUpdated: false },
  ],
  finish: async () => undefined,
});

/**
 * One measured run of the migration bench (./migration.ts), in a process of its own so its peak RSS is its own:
 * `parse <file>` reads the export through the format reader only (the baseline); `results-only <client> <reference>`
 * runs the job with a row importer that writes nothing; `import <client> <reference>` runs the `migration-import` job against the stack named by the environment, invocation after invocation (each with the
 * given time budget, as Lambda would chain them) until the migration ends. Prints one JSON line.
 */
const [mode, ...args] = process.argv.slice(2);
const started = performance.now();

if (mode === 'parse') {
  let rows = 0;
  for await (const _row of readExportRows(createReadStream(args[0] as string))) rows += 1;
  report({ rows, invocations: 1 });
} else if (mode === 'import' || mode === 'results-only') {
  const [client, reference, budget] = args as [string, string, string];
  const built = buildDependencies(loadConfig({ ...process.env, LOG_LEVEL: 'error' }));
  // `MIGRATION_PROFILE=1`: every port call timed, per kind of row (./migration-profile.ts), reported with the numbers.
  const profile = process.env.MIGRATION_PROFILE === '1' ? profileMigration(built, createRowImporter) : undefined;
  const deps = profile?.deps ?? built;
  const importer = mode === 'import' ? (profile?.importer ?? createRowImporter) : resultsOnly;
  const input = { client, migration_reference: reference, time_budget_ms: Number(budget) };
  let invocations = 0;
  let outcome: Record<string, unknown>;
  do {
    invocations += 1;
    outcome = await runMigrationImport(deps, input, importer);
  } while (outcome.continued_after_row !== undefined);
  report({ rows: Number(outcome.rows ?? 0), invocations, state: outcome.migration_state, ...(profile === undefined ? {} : { profile: profile.report() }) });
} else {
  throw new Error(`Unknown mode ${String(mode)}`);
}

function report(result: Record<string, unknown>): void {
  const seconds = (performance.now() - started) / 1000;
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  console.log(JSON.stringify({ ...result, seconds, cpuSeconds, maxRssMiB: usage.maxRSS / 1024 }));
  process.exit(0);
}
