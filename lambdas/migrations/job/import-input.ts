import * as z from 'zod';
import { ClientId, Ulid } from '#shared/contract/fields.ts';

/** The jobs function's name for the import (lambdas/jobs/jobs.ts). */
export const MIGRATION_IMPORT_JOB = 'migration-import';

/**
 * What the import job is started with: the migration, and optionally how long one invocation may run before it
 * checkpoints and starts the next (tests and the bench force short ones; the default, 4 minutes, suits the jobs function's 5).
 */
export const MigrationImportInput = z.strictObject({
  client: ClientId,
  migration_reference: Ulid,
  time_budget_ms: z.int().min(0).max(4 * 60 * 1000).optional(),
});
export type MigrationImportInput = z.infer<typeof MigrationImportInput>;
