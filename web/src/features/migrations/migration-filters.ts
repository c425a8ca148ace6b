import { z } from 'zod/mini';
import { MIGRATION_ERROR_TYPES, MIGRATION_STATES, MIGRATION_SUCCESS_TYPES, MIGRATION_WARNING_TYPES } from '#shared/constants/account.ts';
import { MIGRATION_RESULT_KINDS } from '#shared/contract/entities/migrations.ts';
import type { MigrationListQuery } from './api/list-migrations.ts';

/** The migrations screen's URL: its state filter. */
export const MigrationsSearch = z.object({
  state: z.catch(z.optional(z.enum(MIGRATION_STATES)), undefined),
});
export type MigrationsSearch = z.infer<typeof MigrationsSearch>;

/** The list query for a search: an unset filter is left out (the API's query is strict). */
export function migrationQueryOf(search: MigrationsSearch): MigrationListQuery {
  return search.state === undefined ? {} : { migration_state: search.state };
}

/** A migration's URL: the results' filter by kind and by result type (a link can point at one type's rows). */
export const MigrationResultsSearch = z.object({
  kind: z.catch(z.optional(z.enum(MIGRATION_RESULT_KINDS)), undefined),
  type: z.catch(z.optional(z.enum([...MIGRATION_ERROR_TYPES, ...MIGRATION_WARNING_TYPES, ...MIGRATION_SUCCESS_TYPES])), undefined),
});
export type MigrationResultsSearch = z.infer<typeof MigrationResultsSearch>;
