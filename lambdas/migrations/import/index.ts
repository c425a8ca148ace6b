/** What happens to each row of a legacy export (docs/migration-format.md, "What each row does"). */
export { createRowImporter } from './row-importer.ts';
export { legacyPayloadReference } from './recording-store.ts';
export { resultOfParseFailure, type MigrationEntity, type RowResult } from './results.ts';
export type { RowEntry, RowImporter, RowImporterDependencies, RowImporterOptions } from './types.ts';
