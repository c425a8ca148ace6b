import { MigrationState } from '../../constants/account.ts';
import { defineEndpoint } from '../endpoint.ts';
import { AccountMigrationConfig, AccountMigrationConfigRequest } from '../entities/account.ts';
import { LegacyMigration } from '../entities/account-data.ts';
import { pageOrTotal } from '../entities/common.ts';
import {
  MigrationResult,
  MigrationResultKind,
  MigrationResultType,
  MigrationSubmission,
  MigrationSubmissionRequest,
} from '../entities/migrations.ts';
import { params } from './params.ts';
import { dateRangeQuery, listQuery } from './query.ts';

const base = { surface: 'client', auth: 'client-app', group: 'migrations' } as const;

/**
 * Legacy-platform migration (lambdas/migrations): the account's migration switches, and imports of a legacy export
 * file with a result for every row. A submission returns a pre-signed upload URL; the import starts once the file is
 * uploaded and `start` is called (docs/decisions.md "Legacy migration").
 */
export const migrationEndpoints = [
  defineEndpoint({
    ...base,
    id: 'client.account.migration.get',
    method: 'GET',
    path: '/account/migration',
    action: 'migration:Read',
    summary: 'Legacy migration switches (onboarding, offboarding, payloads).',
    response: AccountMigrationConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.account.migration.put',
    method: 'PUT',
    path: '/account/migration',
    action: 'migration:Update',
    summary: 'Replace the legacy migration switches.',
    body: AccountMigrationConfigRequest,
    response: AccountMigrationConfig,
  }),
  defineEndpoint({
    ...base,
    id: 'client.migrations.list',
    method: 'GET',
    path: '/migrations',
    action: 'migrations:List',
    summary: 'Legacy migration imports, newest first; `from`/`to` bound the submission time.',
    query: listQuery({ ...dateRangeQuery, migration_state: MigrationState.optional() }),
    response: pageOrTotal(LegacyMigration),
  }),
  defineEndpoint({
    ...base,
    id: 'client.migrations.create',
    method: 'POST',
    path: '/migrations',
    action: 'migrations:Import',
    summary: 'Submit a legacy export: a new Pending migration and a pre-signed URL to PUT the file to.',
    body: MigrationSubmissionRequest,
    response: MigrationSubmission,
  }),
  defineEndpoint({
    ...base,
    id: 'client.migrations.get',
    method: 'GET',
    path: '/migrations/{migration_reference}',
    action: 'migrations:Read',
    summary: 'One migration: its state, progress, counters and result summaries.',
    params: params('migration_reference'),
    response: LegacyMigration,
  }),
  defineEndpoint({
    ...base,
    id: 'client.migrations.start',
    method: 'POST',
    path: '/migrations/{migration_reference}/start',
    action: 'migrations:Import',
    summary: 'Import the uploaded file (or resume an import that stopped); answers at once, the import runs on.',
    params: params('migration_reference'),
    response: LegacyMigration,
  }),
  defineEndpoint({
    ...base,
    id: 'client.migrations.results',
    method: 'GET',
    path: '/migrations/{migration_reference}/results',
    action: 'migrations:Read',
    summary: 'The result of every row, in row order; `kind` and `type` keep one kind or one result type.',
    params: params('migration_reference'),
    query: listQuery({ kind: MigrationResultKind.optional(), type: MigrationResultType.optional() }),
    response: pageOrTotal(MigrationResult),
  }),
] as const;
