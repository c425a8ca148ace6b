import { Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { MIGRATION_STATES } from '#shared/constants/account.ts';
import type { ReactNode } from 'react';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { AccountMigrationConfig } from '#shared/contract/entities/account.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { MigrationLink, MigrationProgressBar, MigrationStateBadge } from './migration-bits.tsx';
import { migrationQueryOf, type MigrationsSearch } from './migration-filters.ts';
import { MIGRATION_STATE_LABELS } from './migration-labels.ts';
import { outcomeWordsOf, progressOf } from './migration-progress.ts';
import { MigrationSettings } from './migration-settings.tsx';
import { useMigrations } from './api/list-migrations.ts';
import { SubmitExport } from './submit-export.tsx';
import { actorName } from '../../lib/actor-name.ts';

const columns: readonly Column<LegacyMigration>[] = [
  {
    header: 'File',
    value: (row) => row.filename,
    render: (row) => (
      <MigrationLink reference={row.migration_reference} label={`Open migration ${row.filename} (${row.migration_reference})`}>
        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
          {row.filename}
        </Text>
      </MigrationLink>
    ),
  },
  { header: 'State', value: (row) => MIGRATION_STATE_LABELS[row.migration_state], render: (row) => <MigrationStateBadge state={row.migration_state} /> },
  {
    header: 'Submitted',
    value: (row) => row.submitted_at ?? '',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{formatDateTime(row.submitted_at)}</Text>
        {row.submitted_by !== undefined && (
          <Text size="xs" c="dimmed">
            by {actorName(row.submitted_by_actor, row.submitted_by)}
          </Text>
        )}
      </Stack>
    ),
  },
  { header: 'Migrated', value: (row) => row.migrated_at ?? '', render: (row) => formatDateTime(row.migrated_at) },
  {
    header: 'Progress',
    value: (row) => progressOf(row).words,
    render: (row) => <MigrationProgressBar migration={row} label={`Progress of ${row.filename}`} />,
  },
  { header: 'Results', value: (row) => outcomeWordsOf(row), render: (row) => <Text size="sm">{outcomeWordsOf(row)}</Text> },
];

/** Legacy migrations: import an export, the switches imports run with, and every import with its state and progress. */
export function MigrationsScreen({
  search,
  onSearch,
  settingsHistory,
}: {
  search: MigrationsSearch;
  onSearch: (next: MigrationsSearch) => void;
  /** What opens the import settings' earlier versions (features/history, composed by the route). */
  settingsHistory?: (config: AccountMigrationConfig) => ReactNode;
}) {
  const list = useMigrations(migrationQueryOf(search));
  return (
    <>
      <PageHeader
        title="Migrations"
        description="Bring a firm's history over from its legacy recording platform: device users, devices, groups and recordings, with a result for every row of the export."
      />
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <SubmitExport />
          <MigrationSettings history={settingsHistory} />
        </SimpleGrid>
        <Stack gap="xs" component="form" role="search" aria-label="Filter migrations" onSubmit={(event) => event.preventDefault()}>
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <Select
              label="State"
              placeholder="Any state"
              clearable
              data={MIGRATION_STATES.map((state) => ({ value: state, label: MIGRATION_STATE_LABELS[state] }))}
              value={search.state ?? null}
              onChange={(value) => onSearch({ ...search, state: (value ?? undefined) as MigrationsSearch['state'] })}
            />
          </SimpleGrid>
        </Stack>
        <CursorTable
          label="Migrations"
          columns={columns}
          rows={list.items}
          rowKey={(row) => row.migration_reference}
          {...pagingOf(list)}
          empty={search.state !== undefined ? `No migration is ${MIGRATION_STATE_LABELS[search.state].toLowerCase()}.` : 'No migrations yet. Import a legacy export to start one.'}
        />
      </Stack>
    </>
  );
}
