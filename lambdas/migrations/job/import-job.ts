import type { Readable } from 'node:stream';
import type { Dependencies } from '#core/dependencies.ts';
import { readMigration, type MigrationItem } from '#core/store/entities/migration.ts';
import { keys } from '#core/store/keys.ts';
import { ConditionFailedError } from '#core/ports/table-store.ts';
import type { AccountMigrationConfigRequest } from '#shared/contract/entities/account.ts';
import { readExportRows, type ParsedRow } from '../format/index.ts';
import {
  resultOfParseFailure,
  type RowEntry,
  type RowImporter,
  type RowImporterDependencies,
  type RowImporterOptions,
  type RowResult,
} from '../import/index.ts';
import { migrationSwitches } from '../settings.ts';
import { MIGRATION_IMPORT_JOB, MigrationImportInput, trackedMigration } from './import-input.ts';
import { jobBudgetMs, leaseUntil, renewMarkerOperation, renewTrackedJob } from '../../jobs/public.ts';
import { endMigration, type MigrationEnd } from './outcome.ts';
import { createResultWriter, RunSupersededError } from './result-writer.ts';

/**
 * One invocation imports for LONG_JOB_BUDGET_SECONDS at most (4 minutes), then checkpoints and starts the next: well
 * inside the jobs function's 5-minute timeout (lib/stacks/jobs-stack.ts), with room for the row in hand and the last
 * batch's write.
 */
export type ImportJobDependencies = Pick<Dependencies, 'table' | 'blobs' | 'keys' | 'scanner' | 'clock' | 'logger' | 'jobs' | 'config'>;
export type RowImporterFactory = (deps: RowImporterDependencies, options: RowImporterOptions) => RowImporter;

/** Bytes of a stream as they pass, so progress can show bytes read of the total. */
async function* counting(body: Readable, seen: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    seen.bytes += chunk.byteLength;
    yield chunk;
  }
}

/**
 * Scans the export once, before any row is read (as payloads are): an infected file ends the migration Quarantined.
 * The verdict is kept on the migration, so a resumed import does not scan again.
 */
async function scanOnce(
  deps: ImportJobDependencies,
  migration: MigrationItem,
  etag: string | undefined,
  size: number,
): Promise<MigrationEnd | 'clean' | 'pending'> {
  if (migration.scanned_at !== undefined) return 'clean';
  const verdict = await deps.scanner.inspect({
    bucket: 'raw',
    key: migration.object_key,
    revision: etag,
    contentLength: size,
    body: async () => {
      const object = await deps.blobs.get('raw', migration.object_key);
      if (object === undefined) throw new Error(`The export file ${migration.object_key} vanished while being scanned`);
      return object.body;
    },
  });
  if (verdict.verdict === 'pending') return 'pending';
  if (verdict.verdict === 'infected') {
    return { state: 'Quarantined', message: `The export file was quarantined: the malware scan found ${verdict.signature}. Nothing was imported.` };
  }
  return 'clean';
}

/**
 * Marks the start of an invocation: the scan verdict and the switches the import keeps to (read at the first one),
 * and one more invocation counted. Only a Pending migration is taken up.
 */
async function takeUp(
  deps: ImportJobDependencies,
  migration: MigrationItem,
  run: { settings: AccountMigrationConfigRequest; etag: string | undefined; input: MigrationImportInput; budgetMs: number },
): Promise<void> {
  const { settings, etag, input, budgetMs } = run;
  const at = deps.clock.now();
  const now = at.toISOString();
  const file = migration.object_etag ?? etag;
  await deps.table.transactWrite([
    {
      kind: 'update',
      key: keys.migration.key(migration.client, migration.migration_reference),
      update: {
        set: { settings, scanned_at: migration.scanned_at ?? now, started_at: migration.started_at ?? now, ...(file === undefined ? {} : { object_etag: file }) },
        add: { invocations: 1 },
      },
      condition: { kind: 'expression', expression: 'migration_state = :pending', values: { ':pending': 'Pending' } },
    },
    // This invocation's lease on the running-job marker: past it, the job-sweep takes the invocation for dead.
    renewMarkerOperation(trackedMigration(input), leaseUntil(deps.config, at, budgetMs)),
  ]);
}

/**
 * The `migration-import` job: imports a submitted export file in batches of rows read ahead (up to 100, or 8 MiB of
 * media), in constant memory (the file is streamed from the raw bucket through the format reader; results are written
 * in small batches), with a result for every row.
 * It scans the file first; it stops after its time budget with a checkpoint and starts its own continuation, which
 * skips the rows already resulted. It ends the migration Migrated, PartialFail (some rows failed) or Failed (the file is
 * missing, of another size, or not an export), and raises a MigrationAlert when it did not fully succeed.
 */
export async function runMigrationImport(
  deps: ImportJobDependencies,
  rawInput: Record<string, unknown>,
  createRowImporter: RowImporterFactory,
): Promise<Record<string, unknown>> {
  const input = MigrationImportInput.parse(rawInput);
  const budgetMs = input.time_budget_ms ?? jobBudgetMs(deps.config);
  const deadline = performance.now() + budgetMs;
  const stored = await deps.table.get(keys.migration.key(input.client, input.migration_reference), { consistent: true });
  if (stored === undefined) throw new Error(`No migration ${input.migration_reference} in ${input.client}`);
  let migration = readMigration(stored);
  if (migration.migration_state !== 'Pending') return { skipped: migration.migration_state };

  const head = await deps.blobs.head('raw', migration.object_key);
  if (head === undefined) return end(deps, migration, { state: 'Failed', message: 'The export file was never uploaded (or was removed): nothing was imported.' });
  if (head.contentLength !== migration.size_bytes) {
    return end(deps, migration, {
      state: 'Failed',
      message: `The uploaded file has ${head.contentLength} bytes, not the ${migration.size_bytes} declared: nothing was imported. Submit it again.`,
    });
  }
  if (migration.object_etag !== undefined && head.etag !== migration.object_etag) {
    // Rows already imported came from the file that was scanned; the rest would come from one that was not.
    return end(deps, migration, {
      state: 'Failed',
      message: `The export file was replaced after its import started (rows up to ${migration.checkpoint_row} came from the first one). Submit the new file as a migration of its own.`,
    });
  }
  const scan = await scanOnce(deps, migration, head.etag, head.contentLength);
  // GuardDuty's result event starts the import again (./scan-events.ts); the migration stays Pending meanwhile.
  if (scan === 'pending') return { migration_reference: migration.migration_reference, waiting_for: 'malware scan' };
  if (scan !== 'clean') return end(deps, migration, scan);

  const settings = migration.settings ?? (await migrationSwitches(deps, migration.client));
  try {
    await takeUp(deps, migration, { settings, etag: head.etag, input, budgetMs });
  } catch (error) {
    if (error instanceof ConditionFailedError) return { skipped: 'no longer Pending' };
    throw error;
  }
  migration = readMigration((await deps.table.get(keys.migration.key(migration.client, migration.migration_reference), { consistent: true })) ?? stored);

  const object = await deps.blobs.get('raw', migration.object_key);
  if (object === undefined) return end(deps, migration, { state: 'Failed', message: 'The export file was removed during the import.' });
  const seen = { bytes: 0 };
  const writer = createResultWriter(deps, migration, head.contentLength);
  const importer = createRowImporter(deps, {
    client: migration.client,
    migrationReference: migration.migration_reference,
    settings,
    now: migration.started_at ?? deps.clock.now().toISOString(),
  });
  let notAnExport: string | undefined;
  const batch = createReadAhead();
  // The results of one batch are written while the next batch is imported; the next write waits for them, so results
  // and checkpoints stay in row order, and a failed write fails the invocation at the next batch or at the end.
  let writing: Promise<void> = Promise.resolve();
  const importBatch = async () => {
    const rows = batch.take();
    const answers = await importAll(importer, rows.flatMap(({ parsed }) => (parsed.ok ? [{ row: parsed.row, value: parsed.value }] : [])));
    await writing;
    writing = (async () => {
      let next = 0;
      for (const { parsed, bytesRead } of rows) {
        const results = parsed.ok ? answers[next++] : [resultOfParseFailure(parsed)];
        if (results === undefined) throw new Error(`The row importer answered no result for row ${parsed.row}`);
        await writer.add(parsed.row, results, bytesRead);
      }
    })();
    // Surfaced where it is awaited; never an unhandled rejection meanwhile.
    writing.catch(() => undefined);
  };
  try {
    // A continuation reads the file from its start again, passing over the rows already resulted without parsing them.
    for await (const parsed of readExportRows(counting(object.body, seen), { skipThrough: writer.checkpoint })) {
      if (parsed.row <= writer.checkpoint) continue;
      if (!parsed.ok && parsed.type === 'UnknownFile') notAnExport = parsed.problems.join('; ');
      const overdue = performance.now() > deadline;
      // Past the budget the batch is closed at once: the rows in hand are imported and resulted, then the checkpoint.
      if (!batch.add(parsed, seen.bytes) && !overdue) continue;
      await importBatch();
      if (overdue) {
        await writing;
        await writer.flush();
        await importer.finish();
        object.body.destroy();
        // The marker's lease covers the hand-over until the next invocation takes it up.
        await renewTrackedJob(deps, trackedMigration(input), budgetMs);
        await deps.jobs.start(MIGRATION_IMPORT_JOB, { ...input });
        return { migration_reference: migration.migration_reference, continued_after_row: writer.checkpoint };
      }
    }
    await importBatch();
    await writing;
    await writer.flush();
    await importer.finish();
  } catch (error) {
    object.body.destroy();
    // Nothing of this invocation goes on writing once it has failed.
    await writing.catch(() => undefined);
    if (error instanceof RunSupersededError) return { skipped: 'another run moved on' };
    throw error;
  }

  const done = { ...migration, ...writer.snapshot() };
  if (notAnExport !== undefined) return end(deps, done, { state: 'Failed', message: `The file is not a legacy export: ${notAnExport}` });
  if (writer.errorCount > 0) {
    const rows = writer.errorCount === 1 ? '1 result is an error' : `${writer.errorCount} results are errors`;
    return end(deps, done, { state: 'PartialFail', message: `Imported with errors: ${rows}; see the results of kind error.` });
  }
  return end(deps, done, { state: 'Migrated' });
}

/** Rows read ahead and imported together at most (a batch's reads and writes are DynamoDB's batches of 100). */
const READ_AHEAD_ROWS = 100;
/** Media a batch holds at most, decoded (a row over it is a batch of its own): memory stays bounded by a row's cap. */
const READ_AHEAD_MEDIA_BYTES = 8 * 1024 * 1024;

type ReadRow = { parsed: ParsedRow; bytesRead: number };

/** The rows read ahead of the import: `add` answers true when the batch is full and is to be imported now. */
function createReadAhead() {
  let rows: ReadRow[] = [];
  let media = 0;
  return {
    add(parsed: ParsedRow, bytesRead: number): boolean {
      rows.push({ parsed, bytesRead });
      if (parsed.ok && parsed.value.kind === 'recording') media += parsed.value.media?.bytes.length ?? 0;
      return rows.length >= READ_AHEAD_ROWS || media >= READ_AHEAD_MEDIA_BYTES;
    },
    take(): ReadRow[] {
      const taken = rows;
      rows = [];
      media = 0;
      return taken;
    },
  };
}

/** The rows' results in their order: together when the importer imports batches, else one row after another. */
async function importAll(importer: RowImporter, entries: RowEntry[]): Promise<RowResult[][]> {
  if (entries.length === 0) return [];
  if (importer.importRows !== undefined) return importer.importRows(entries);
  const answers: RowResult[][] = [];
  for (const entry of entries) answers.push(await importer.importRow(entry.value, entry.row));
  return answers;
}

async function end(deps: ImportJobDependencies, migration: MigrationItem, outcome: MigrationEnd): Promise<Record<string, unknown>> {
  const ended = await endMigration(deps, migration, outcome);
  return { migration_reference: migration.migration_reference, migration_state: ended ? outcome.state : 'unchanged', rows: migration.checkpoint_row };
}
