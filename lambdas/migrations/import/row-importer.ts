import { ItemTooLargeError, UnstorableNumberError } from '../../core/errors.ts';
import { ConditionFailedError } from '../../core/ports/table-store.ts';
import type { ExportRow } from '../format/index.ts';
import { results, type ImportContext } from './context.ts';
import { importDevice } from './devices.ts';
import { importDeviceUser } from './device-users.ts';
import { importGroup } from './groups.ts';
import { createMetricsBatch } from './metrics-batch.ts';
import { importRecordingBatch, type RecordingEntry } from './recording-batch.ts';
import { importRecording } from './recordings.ts';
import { ENTITY_OF_KIND, type RowResult } from './results.ts';
import type { RowEntry, RowImporter, RowImporterDependencies, RowImporterOptions } from './types.ts';

/** A row whose item changed under it is judged again against the new state, this many times at most. */
const ATTEMPTS = 3;

/**
 * The importer of one export's rows (docs/migration-format.md, "What each row does"). It remembers the device
 * references of the rows it read (DuplicateDeviceReference): one short string per device, bounded by the fleet, never
 * by the recordings.
 */
export function createRowImporter(deps: RowImporterDependencies, options: RowImporterOptions): RowImporter {
  const now = typeof options.now === 'string' ? new Date(options.now).toISOString() : options.now.toISOString();
  const actor = `job:migration:${options.migrationReference}`;
  const seenDevices = new Set<string>();
  const metrics = createMetricsBatch(deps, options.client);
  let finished = false;

  const importOnce = (context: ImportContext & { attempt: number }, row: ExportRow): Promise<RowResult> => {
    switch (row.kind) {
      case 'group':
        return importGroup(context, row);
      case 'device_user':
        return importDeviceUser(context, row);
      case 'device': {
        // Judged again after a change meanwhile, a row is not its own duplicate.
        const duplicate = seenDevices.has(row.device_reference) && context.attempt === 1;
        seenDevices.add(row.device_reference);
        return importDevice(context, row, duplicate);
      }
      case 'recording':
        return importRecording(context, row);
    }
  };

  const contextOf = (rowNumber: number): ImportContext => ({ deps, client: options.client, actor, now, settings: options.settings, row: rowNumber, metrics });

  const importRow = async (row: ExportRow, rowNumber: number): Promise<RowResult[]> => {
    if (finished) throw new Error('The row importer has finished');
    const context = contextOf(rowNumber);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return [await importOnce({ ...context, attempt }, row)];
      } catch (error) {
        // The reader's bounds keep rows under these; were one to pass, it is that row's error, not the migration's.
        if (error instanceof ItemTooLargeError || error instanceof UnstorableNumberError) {
          return [results.error(context, { entity: ENTITY_OF_KIND[row.kind], type: 'Error', reference: referenceOf(row) }, error.message.replace(/^body: /, ''))];
        }
        if (!(error instanceof ConditionFailedError)) throw error;
        if (attempt >= ATTEMPTS) {
          return [results.error(context, { entity: ENTITY_OF_KIND[row.kind], type: 'Error', reference: referenceOf(row) }, 'Changed on Verity while it was imported, again and again: import the file again')];
        }
      }
    }
  };

  /**
   * One result per entry, in order: runs of recordings as batches (recording-batch.ts), every other row on its own.
   */
  const importRows = async (entries: readonly RowEntry[]): Promise<RowResult[][]> => {
    if (finished) throw new Error('The row importer has finished');
    const answers: RowResult[][] = [];
    let run: RecordingEntry[] = [];
    const importRun = async () => {
      if (run.length === 0) return;
      const batch = run;
      run = [];
      const alone = async (entry: RecordingEntry) => (await importRow(entry.value, entry.row))[0] as RowResult;
      for (const result of await importRecordingBatch(contextOf, batch, alone)) answers.push([result]);
    };
    for (const entry of entries) {
      if (entry.value.kind === 'recording') {
        run.push({ row: entry.row, value: entry.value });
        continue;
      }
      await importRun();
      answers.push(await importRow(entry.value, entry.row));
    }
    await importRun();
    // The batch's counts are written before the job writes its results: a row that has its result has been counted
    // (a killed import's rows without results are imported again, and count what they left pending then).
    await metrics.flush();
    return answers;
  };

  return {
    importRow,
    importRows,
    async finish() {
      finished = true;
      seenDevices.clear();
      await metrics.flush();
    },
  };
}

function referenceOf(row: ExportRow): string {
  switch (row.kind) {
    case 'group':
      return row.group_reference;
    case 'device_user':
      return row.device_user_reference;
    case 'device':
      return row.device_reference;
    case 'recording':
      return row.legacy_payload_reference;
  }
}
