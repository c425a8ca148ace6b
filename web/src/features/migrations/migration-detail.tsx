import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { CatchBoundary, Link } from '@tanstack/react-router';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import { FactList, type Fact } from '../../components/data/fact-list.tsx';
import { FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';
import { useCan } from '../../lib/use-can.ts';
import { MigrationProgressBar, MigrationStateBadge } from './migration-bits.tsx';
import { MigrationCounters, MigrationOutcomes } from './migration-counters.tsx';
import type { MigrationResultsSearch } from './migration-filters.ts';
import { isMoving } from './migration-labels.ts';
import { MigrationResults } from './migration-results.tsx';
import { startOffer } from './migration-progress.ts';
import { useMigration } from './api/get-migration.ts';
import { useStartMigration } from './api/start-migration.ts';
import { actorName } from '../../lib/actor-name.ts';

function StartButton({ migration }: { migration: LegacyMigration }) {
  const canImport = useCan('migrations:Import').allowed;
  const start = useStartMigration();
  const offer = startOffer(migration, new Date());
  if (!canImport || offer === undefined) return null;
  return (
    <Stack gap={4} align="flex-end">
      <Button
        loading={start.isPending}
        onClick={() =>
          start.mutate(
            { params: { migration_reference: migration.migration_reference } },
            { onSuccess: () => notifySaved(offer === 'start' ? 'Import started.' : 'Import resumed from its last checkpoint.') },
          )
        }
      >
        {offer === 'start' ? 'Start import' : 'Resume import'}
      </Button>
      <FormErrorSummary lines={start.error ? errorLinesOf(start.error) : []} />
    </Stack>
  );
}

type MigrationDetailProps = { reference: string; search: MigrationResultsSearch; onSearch: (next: MigrationResultsSearch) => void };

/**
 * One migration: its state and progress, what the file held, its results summary and every row's result.
 *
 * Its route's loader has fetched the migration (ensureQueryData with the same options) and shows MigrationPending
 * meanwhile. A refused fetch (404, 403) shows here, under the page's title, from the page's own boundary (as a
 * recording's page does: a route's errorComponent would be a chunk of its own).
 */
export function MigrationDetail(props: MigrationDetailProps) {
  return (
    <CatchBoundary getResetKey={() => props.reference} errorComponent={({ error }) => <MigrationError error={error} />}>
      <MigrationContent {...props} />
    </CatchBoundary>
  );
}

/** The migration could not be fetched (not found, refused): the API's own message under the page's title. */
export function MigrationError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : '';
  return (
    <>
      <PageHeader title="Migration" />
      <Alert variant="default" title="This migration could not be loaded">
        {message || 'No such migration.'}
      </Alert>
    </>
  );
}

function MigrationContent({ reference, search, onSearch }: MigrationDetailProps) {
  const { data: migration } = useMigration(reference);
  const facts: Fact[] = [
    ['State', <MigrationStateBadge key="state" state={migration.migration_state} />],
    ['Submitted', migration.submitted_at === undefined ? undefined : formatDateTime(migration.submitted_at)],
    ['Submitted by', migration.submitted_by === undefined ? undefined : actorName(migration.submitted_by_actor, migration.submitted_by)],
    ['Import started', migration.started_at === undefined ? undefined : formatDateTime(migration.started_at)],
    ['Migrated', migration.migrated_at === undefined ? undefined : formatDateTime(migration.migrated_at)],
    ['Reference', <Text key="reference" span ff="monospace" size="sm">{migration.migration_reference}</Text>],
  ];
  return (
    <>
      <PageHeader title={`Migration of ${migration.filename}`} description="A legacy export's import: how far it got and the result of every row." actions={<StartButton migration={migration} />} />
      <Stack>
        {migration.error_message !== undefined && (
          <Alert variant="default" title="Why it stopped" role="alert" styles={{ root: { borderColor: 'var(--mantine-color-red-filled)', borderWidth: 2 } }}>
            {migration.error_message}
          </Alert>
        )}
        <Paper withBorder p="md">
          <FactList facts={facts} />
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="migration-progress-title">
          <Title order={2} size="h4" id="migration-progress-title" mb="sm">
            Progress
          </Title>
          <MigrationProgressBar migration={migration} label="Progress of this import" />
          {isMoving(migration.migration_state) && (
            <Text size="xs" c="dimmed" mt={4}>
              Refreshed every few seconds{migration.progress === undefined ? '' : `; last word from the import ${formatDateTime(migration.progress.updated_at)}`}.
            </Text>
          )}
        </Paper>
        <MigrationCounters migration={migration} />
        <MigrationOutcomes migration={migration} onShow={(filter) => onSearch(filter)} />
        <MigrationResults migration={migration} search={search} onSearch={onSearch} />
        <Group>
          <Button variant="default" renderRoot={(props) => <Link {...props} to="/dashboard/account/migrations" />}>
            All migrations
          </Button>
        </Group>
      </Stack>
    </>
  );
}
