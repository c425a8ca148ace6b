import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
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

/** One migration: its state and progress, what the file held, its results summary and every row's result. */
export function MigrationDetail({
  reference,
  search,
  onSearch,
}: {
  reference: string;
  search: MigrationResultsSearch;
  onSearch: (next: MigrationResultsSearch) => void;
}) {
  const query = useMigration(reference);
  if (query.isLoading) {
    return (
      <>
        <PageHeader title="Migration" />
        <Group justify="center" py="xl">
          <Loader aria-label="Loading the migration" />
        </Group>
      </>
    );
  }
  const migration = query.data;
  if (migration === undefined) {
    return (
      <>
        <PageHeader title="Migration" />
        <Alert variant="default" title="This migration could not be loaded">
          {query.error?.message ?? 'No such migration.'}
        </Alert>
      </>
    );
  }
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
