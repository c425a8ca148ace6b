import { endpointOf } from '#shared/contract/endpoint-of.ts';
import { migrationEndpoints } from '#shared/contract/endpoints/migrations.ts';
import { blobStoreAdapter } from '#core/adapters/wiring/blob-store.ts';
import { jobRunnerAdapter } from '#core/adapters/wiring/job-runner.ts';
import { dependenciesWith } from '#core/function-dependencies.ts';
import { createApiHandler } from '#core/http/create-api-handler.ts';
import { reply } from '#core/http/reply.ts';
import { implementForTenant } from '#core/http/route.ts';
import { toLegacyMigration } from '#core/store/entities/migration.ts';
import { listMigrations } from './migration-list.ts';
import { listMigrationResults } from './results/list-results.ts';
import { getMigrationConfig, putMigrationConfig } from './settings.ts';
import { loadMigration, requireAccountWide, startMigration, submitMigration } from './submission.ts';
import { apiRecorders } from '../api-recorders.ts';

/** The group's endpoints, picked by id: the compiler refuses an id the group lacks and types each route by it. */
const configGet = endpointOf(migrationEndpoints, 'client.account.migration.get');
const configPut = endpointOf(migrationEndpoints, 'client.account.migration.put');
const list = endpointOf(migrationEndpoints, 'client.migrations.list');
const create = endpointOf(migrationEndpoints, 'client.migrations.create');
const get = endpointOf(migrationEndpoints, 'client.migrations.get');
const start = endpointOf(migrationEndpoints, 'client.migrations.start');
const results = endpointOf(migrationEndpoints, 'client.migrations.results');

/**
 * Lambda entry of the `migrations` group: the account's migration switches, submissions (a pre-signed upload of the
 * export file), starting the import job, and reading migrations with the result of every row.
 */
export const handler = createApiHandler({
  group: 'migrations',
  recorders: apiRecorders,
  endpoints: migrationEndpoints,
  routes: {
    [configGet.id]: implementForTenant(configGet, ({ caller }) => getMigrationConfig(caller.deps, caller.tenant)),
    [configPut.id]: implementForTenant(configPut, ({ caller, body }) => putMigrationConfig(caller, body)),
    [list.id]: implementForTenant(list, async ({ caller, query }) => {
      requireAccountWide(caller);
      return listMigrations(caller, query);
    }),
    [create.id]: implementForTenant(create, async ({ caller, body }) => {
      requireAccountWide(caller);
      return reply(await submitMigration(caller, body), { status: 201 });
    }),
    [get.id]: implementForTenant(get, async ({ caller, params }) => {
      requireAccountWide(caller);
      return toLegacyMigration(await loadMigration(caller.deps, caller.tenant, params.migration_reference));
    }),
    [start.id]: implementForTenant(start, async ({ caller, params }) => {
      requireAccountWide(caller);
      return reply(await startMigration(caller, params.migration_reference), { status: 202 });
    }),
    [results.id]: implementForTenant(results, async ({ caller, params, query }) => {
      requireAccountWide(caller);
      return listMigrationResults(caller, params.migration_reference, query);
    }),
  },
  // Submissions pre-sign the upload to the raw bucket and check it arrived; start invokes the jobs function.
  dependencies: dependenciesWith(blobStoreAdapter, jobRunnerAdapter),
});
