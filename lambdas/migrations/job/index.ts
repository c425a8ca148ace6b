import { createRowImporter } from '../import/index.ts';
import { runMigrationImport, type ImportJobDependencies } from './import-job.ts';

export { runMigrationImport } from './import-job.ts';

/** The `migration-import` job as the jobs function runs it (lambdas/jobs/jobs.ts), with the row importer of ../import. */
export const migrationImportJob = (deps: ImportJobDependencies, input: Record<string, unknown>): Promise<Record<string, unknown>> =>
  runMigrationImport(deps, input, createRowImporter);
