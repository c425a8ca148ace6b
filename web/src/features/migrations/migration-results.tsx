import { Button, Group, Paper, Progress, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { PAGE_SIZE_MAX } from '#shared/constants/limits.ts';
import { MIGRATION_ERROR_TYPES, MIGRATION_SUCCESS_TYPES, MIGRATION_WARNING_TYPES } from '#shared/constants/account.ts';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationResult, MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { ErrorLines } from '../../components/data/error-lines.tsx';
import { formatNumber } from '../../lib/format.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';
import { useSession } from '../../lib/session/session-context.tsx';
import { ResultKindBadge } from './migration-bits.tsx';
import type { MigrationResultsSearch } from './migration-filters.ts';
import { isMoving, kindOfType, RESULT_ENTITY_LABELS, RESULT_KIND_LABELS, RESULT_TYPE_LABELS } from './migration-labels.ts';
import { listMigrationResults, resultsQueryOf, useMigrationResults } from './api/list-migration-results.ts';
import { collectResultsCsv, expectedResultCount, saveBlob } from './results-csv.ts';

const columns: readonly Column<MigrationResult>[] = [
  { header: 'Row', value: (row) => row.row },
  {
    header: 'Result',
    value: (row) => row.type,
    render: (row) => (
      <Group gap="xs" wrap="nowrap">
        <ResultKindBadge kind={row.kind} />
        <Text size="sm" title={row.type}>
          {RESULT_TYPE_LABELS[row.type]}
        </Text>
      </Group>
    ),
  },
  { header: 'Entity', value: (row) => (row.entity === undefined ? '' : RESULT_ENTITY_LABELS[row.entity]) },
  { header: 'Reference', value: (row) => row.reference ?? '', render: (row) => <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{row.reference ?? '—'}</Text> },
  { header: 'Message', value: (row) => row.message ?? '', render: (row) => <Text size="sm" style={{ overflowWrap: 'anywhere' }} maw={520}>{row.message ?? '—'}</Text> },
];

const TYPES_OF_KIND: Record<MigrationResultKind, readonly MigrationResultType[]> = {
  error: MIGRATION_ERROR_TYPES,
  warning: MIGRATION_WARNING_TYPES,
  success: MIGRATION_SUCCESS_TYPES,
};

/** Every row's result, filtered by kind or type (in the URL), with a download of all of them (not only those shown). */
export function MigrationResults({
  migration,
  search,
  onSearch,
}: {
  migration: LegacyMigration;
  search: MigrationResultsSearch;
  onSearch: (next: MigrationResultsSearch) => void;
}) {
  const filter = { kind: search.kind, type: search.type };
  const results = useMigrationResults(migration.migration_reference, filter, isMoving(migration.migration_state));
  const tallies = new Map([...migration.imported, ...migration.import_warnings, ...migration.import_errors].map((issue) => [issue.type, issue.count ?? 0]));
  const typeOptions = (search.kind === undefined ? [...MIGRATION_ERROR_TYPES, ...MIGRATION_WARNING_TYPES, ...MIGRATION_SUCCESS_TYPES] : TYPES_OF_KIND[search.kind]).map((type) => ({
    value: type,
    label: `${RESULT_TYPE_LABELS[type]} (${formatNumber(tallies.get(type) ?? 0)})`,
  }));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-results-title">
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="migration-results-title">
          Results by row
        </Title>
        <DownloadResults migration={migration} filter={filter} />
      </Group>
      <Group align="flex-end" mb="sm" wrap="wrap" role="search" aria-label="Filter results">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="result-kind-label">
            Kind
          </Text>
          <SegmentedControl
            aria-labelledby="result-kind-label"
            value={search.kind ?? 'all'}
            onChange={(value) => {
              const kind = value === 'all' ? undefined : (value as MigrationResultKind);
              // A type of another kind would give nothing: the type goes when the kind changes past it.
              onSearch({ kind, type: search.type !== undefined && kind !== undefined && kindOfType(search.type) !== kind ? undefined : search.type });
            }}
            data={[{ value: 'all', label: 'All' }, ...(['error', 'warning', 'success'] as const).map((kind) => ({ value: kind, label: RESULT_KIND_LABELS[kind] }))]}
          />
        </Stack>
        <Select
          label="Result type"
          placeholder="Any result type"
          clearable
          searchable
          miw={320}
          data={typeOptions}
          value={search.type ?? null}
          onChange={(value) => onSearch({ ...search, type: (value ?? undefined) as MigrationResultType | undefined })}
        />
      </Group>
      <CursorTable
        label="Migration results"
        columns={columns}
        rows={results.items}
        rowKey={(row) => `${row.row}-${row.type}-${row.reference ?? ''}`}
        {...pagingOf(results)}
        empty={
          search.kind === undefined && search.type === undefined
            ? isMoving(migration.migration_state)
              ? 'No rows read yet: results appear as the import reads the file.'
              : 'This migration has no results.'
            : 'No row has this result.'
        }
      />
    </Paper>
  );
}

/** "Download CSV": every result of the filter, page by page through the cursor, with how far it has got. */
function DownloadResults({ migration, filter }: { migration: LegacyMigration; filter: { kind?: MigrationResultKind; type?: MigrationResultType } }) {
  const { session } = useSession();
  const [fetched, setFetched] = useState<number | undefined>(undefined);
  const [failure, setFailure] = useState<string[]>([]);
  const stopper = useRef<AbortController | undefined>(undefined);
  const expected = expectedResultCount(migration, filter);
  const running = fetched !== undefined;

  const download = async () => {
    const controller = new AbortController();
    stopper.current = controller;
    setFailure([]);
    setFetched(0);
    try {
      const { blob } = await collectResultsCsv({
        fetchPage: (lastKey, signal) =>
          session
            .call(
            listMigrationResults,
            {
              params: { migration_reference: migration.migration_reference },
              query: { ...resultsQueryOf(filter), limit: String(PAGE_SIZE_MAX), ...(lastKey === undefined ? {} : { last_key: lastKey }) },
            },
              signal,
            )
            // A page is asked for (result_type defaults to page), so the count-only arm never comes back.
            .then((answer) => ('data' in answer ? answer : { data: [] })),
        onProgress: setFetched,
        signal: controller.signal,
      });
      const suffix = filter.type ?? filter.kind ?? 'all';
      saveBlob(`migration-${migration.migration_reference}-${suffix}.csv`, blob);
    } catch (error) {
      if (!controller.signal.aborted) setFailure(errorLinesOf(error));
    } finally {
      setFetched(undefined);
      stopper.current = undefined;
    }
  };

  const percent = running && expected > 0 ? Math.min(100, Math.round(((fetched ?? 0) / expected) * 100)) : 0;
  return (
    <Stack gap={4} align="flex-end">
      <Group gap="xs">
        {running && (
          <Button variant="default" size="xs" onClick={() => stopper.current?.abort()}>
            Stop
          </Button>
        )}
        <Button size="xs" variant="light" loading={running} disabled={expected === 0} onClick={() => void download()}>
          Download CSV
        </Button>
      </Group>
      {running && (
        <Stack gap={2} w={260}>
          <Progress value={percent} size="sm" aria-label={`Download progress: ${formatNumber(fetched)} of ${formatNumber(expected)} results`} />
          <Text size="xs" aria-live="polite">
            {formatNumber(fetched)} of {formatNumber(expected)} results fetched
          </Text>
        </Stack>
      )}
      {!running && (
        <Text size="xs" c="dimmed">
          {formatNumber(expected)} {expected === 1 ? 'result' : 'results'} {filter.kind === undefined && filter.type === undefined ? 'in all' : 'of this filter'}
        </Text>
      )}
      <ErrorLines title="The download failed" lines={failure} />
    </Stack>
  );
}
