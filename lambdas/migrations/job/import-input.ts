import * as z from 'zod';
import { ClientId, Ulid } from '#shared/contract/fields.ts';
import type { TrackedJob } from '../../jobs/public.ts';

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

/** A migration as a long job (lambdas/jobs/running-jobs.ts): keyed by its reference, resumed with its import's input. */
export function trackedMigration(input: MigrationImportInput): TrackedJob {
  return { client: input.client, kind: 'migration', id: input.migration_reference, job: MIGRATION_IMPORT_JOB, input: { ...input } };
}
