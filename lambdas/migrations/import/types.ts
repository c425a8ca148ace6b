import type { AccountMigrationConfigRequest } from '#shared/contract/entities/account.ts';
import type { Dependencies } from '../../core/dependencies.ts';
import type { ProcessingDependencies } from '../../payloads/public.ts';
import type { ExportRow } from '../format/index.ts';
import type { RowResult } from './results.ts';

/**
 * What the row importer uses: the table, the payload buckets, the key service (the tenant's device KEK), the scanner,
 * and the Object Lock mode processing locks recordings in (`config`, as processing takes it).
 */
export type RowImporterDependencies = Pick<Dependencies, 'table' | 'blobs' | 'keys' | 'scanner' | 'clock' | 'logger'> & Pick<ProcessingDependencies, 'config'>;

export interface RowImporterOptions {
  client: string;
  /** The migration the rows belong to: it names the writer (`updated_by` `job:migration:<reference>`). */
  migrationReference: string;
  /** The tenant's migration switches (`account/migration`), read once when the import starts. */
  settings: Pick<AccountMigrationConfigRequest, 'disable_onboarding' | 'disable_offboarding' | 'disable_payloads'>;
  /** When the import runs (ISO instant or Date): `updated_at` and `processed_at` of what it writes. */
  now: string | Date;
}

/** A row read from the file, with its row number. */
export interface RowEntry {
  row: number;
  value: ExportRow;
}

/**
 * Imports the rows of one export, in file order. `importRow` answers the row's one result (an array of one: the
 * catalogue has one result per row). A refusal of the data (unknown references, a licence limit, a malware hit…) is a
 * result; an error of the platform itself (the table or the buckets unreachable) is thrown, and the row may be
 * imported again later: every row is idempotent. `importRows`, when an importer has it, imports consecutive rows
 * together with each one's result as `importRow` would answer it (in the entries' order); the job uses it when it is
 * there. `finish` after the last row.
 */
export interface RowImporter {
  importRow(row: ExportRow, rowNumber: number): Promise<RowResult[]>;
  importRows?(entries: readonly RowEntry[]): Promise<RowResult[][]>;
  finish(): Promise<void>;
}
