/** What happens to each row of a legacy export (docs/migration-format.md, "What each row does"). */
export { ENTITY_OF_KIND, resultOfParseFailure, type MigrationEntity, type RowResult } from './results.ts';
export type { RowImporter, RowImporterDependencies, RowImporterOptions } from './types.ts';
