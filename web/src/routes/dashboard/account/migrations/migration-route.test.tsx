import { QueryClient } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import { AppProviders } from '../../../../app/providers.tsx';
import { Route as MigrationRoute } from './$migrationReference.tsx';
import { runLoader, sessionAnswering } from '../../../../testing/detail-route.ts';
import { ApiError } from '../../../../lib/api-error.ts';
import { migrationQueryOptions } from '../../../../features/migrations/api/get-migration.ts';
import { MigrationError } from '../../../../features/migrations/migration-detail.tsx';

const REFERENCE = '01JAAAAAAAAAAAAAAAAAAAAAAA';

const migration: LegacyMigration = {
  migration_reference: REFERENCE,
  migration_state: 'Pending',
  filename: 'history.ndjson',
  counters: {},
  warnings: [],
  import_errors: [],
  import_warnings: [],
  imported: [],
};

const ACTIONS = ['migrations:Read'];

describe("a migration's route", () => {
  it('has the migration in hand once its loader is done, so the page renders it at once', async () => {
    const queryClient = new QueryClient();
    const session = sessionAnswering(200, migration, ACTIONS);
    await runLoader(MigrationRoute, { queryClient, session }, { migrationReference: REFERENCE });
    const key = migrationQueryOptions(session, REFERENCE).queryKey;
    expect(queryClient.getQueryData(key)).toEqual(migration);
    // What the page reads with useSuspenseQuery is there, fresh: it renders without suspending or asking again.
    expect(queryClient.getQueryState(key)?.status).toBe('success');
  });

  it('keeps a refusal for the page to show under its title with the API message, rather than failing the navigation', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const session = sessionAnswering(403, { error_code: 403, message: ['Not allowed: migrations:Read'] }, ACTIONS);
    await runLoader(MigrationRoute, { queryClient, session }, { migrationReference: REFERENCE });
    const error = queryClient.getQueryState(migrationQueryOptions(session, REFERENCE).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    const html = renderToString(
      <AppProviders queryClient={queryClient} session={session}>
        <MigrationError error={error} />
      </AppProviders>,
    );
    expect(html).toContain('>Migration</h1>');
    expect(html).toContain('This migration could not be loaded');
    expect(html).toContain((error as Error).message);
    expect((error as Error).message).not.toBe('');
  });
});
