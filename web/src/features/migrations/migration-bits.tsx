import { Anchor, Badge, Progress, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { MigrationState } from '#shared/constants/account.ts';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationResultKind } from '#shared/contract/entities/migrations.ts';
import { isMoving, MIGRATION_STATE_COLOURS, MIGRATION_STATE_LABELS, RESULT_KIND_COLOURS, RESULT_KIND_LABELS } from './migration-labels.ts';
import { progressOf } from './migration-progress.ts';

/** A migration's state as a coloured badge with its word (colour is never the only sign). */
export function MigrationStateBadge({ state }: { state: MigrationState }) {
  return (
    <Badge variant="light" color={MIGRATION_STATE_COLOURS[state]} miw="max-content" tt="none">
      {MIGRATION_STATE_LABELS[state]}
    </Badge>
  );
}

export function ResultKindBadge({ kind }: { kind: MigrationResultKind }) {
  return (
    <Badge variant="light" color={RESULT_KIND_COLOURS[kind]} miw="max-content" tt="none">
      {RESULT_KIND_LABELS[kind]}
    </Badge>
  );
}

/** Bytes of the file read as a bar, with rows and bytes in words beneath; a moving stripe until the job reports. */
export function MigrationProgressBar({ migration, label }: { migration: LegacyMigration; label: string }) {
  const progress = progressOf(migration);
  const moving = isMoving(migration.migration_state);
  return (
    <Stack gap={4} miw={180}>
      {progress.percent !== undefined && (
        <Progress
          value={progress.percent}
          size="md"
          color={moving ? 'blue' : 'green'}
          striped={moving}
          animated={moving}
          aria-label={`${label}: ${progress.words}`}
        />
      )}
      {progress.percent === undefined && moving && <Progress value={100} striped animated color="gray" size="md" aria-label={`${label}: ${progress.words}`} />}
      <Text size="xs">{progress.words}</Text>
    </Stack>
  );
}

/** A link to one migration's detail (Mantine's look, the router's navigation). */
export function MigrationLink({ reference, children, label }: { reference: string; children: ReactNode; label?: string }) {
  return (
    <Anchor
      size="sm"
      aria-label={label}
      renderRoot={(props) => <Link {...props} to="/dashboard/account/migrations/$migrationReference" params={{ migrationReference: reference }} />}
    >
      {children}
    </Anchor>
  );
}
