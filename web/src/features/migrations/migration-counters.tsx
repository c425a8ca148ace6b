import { Button, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { LegacyMigration } from '#shared/contract/entities/account-data.ts';
import type { MigrationResultKind, MigrationResultType } from '#shared/contract/entities/migrations.ts';
import { formatNumber } from '../../lib/format.ts';
import { ResultKindBadge } from './migration-bits.tsx';
import { RESULT_TYPE_LABELS } from './migration-labels.ts';
import { counterRowsOf, outcomeTotalsOf } from './migration-progress.ts';

/**
 * Rows per entity and how many of them created or changed something, as a table with a bar per entity: the share
 * that changed Verity is seen at a glance, the numbers are read beside it.
 */
export function MigrationCounters({ migration }: { migration: LegacyMigration }) {
  const rows = counterRowsOf(migration.counters);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-counters-title">
      <Title order={2} size="h4" id="migration-counters-title" mb="sm">
        What the file held
      </Title>
      <Table aria-labelledby="migration-counters-title" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Entity</Table.Th>
            <Table.Th scope="col" ta="right">
              Rows
            </Table.Th>
            <Table.Th scope="col" ta="right">
              New or updated
            </Table.Th>
            <Table.Th scope="col" w="40%">
              Share new or updated
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const share = row.total === 0 ? 0 : Math.round((row.newOrUpdated / row.total) * 100);
            return (
              <Table.Tr key={row.label}>
                <Table.Th scope="row" fw={500}>
                  {row.label}
                </Table.Th>
                <Table.Td ta="right">{formatNumber(row.total)}</Table.Td>
                <Table.Td ta="right">{formatNumber(row.newOrUpdated)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Progress value={share} size="lg" style={{ flex: 1 }} aria-label={`${row.label}: ${share}% of rows new or updated`} />
                    <Text size="xs" w={36} ta="right">
                      {share}%
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

const KIND_SECTIONS: ReadonlyArray<{ kind: MigrationResultKind; title: string; field: 'import_errors' | 'import_warnings' | 'imported' }> = [
  { kind: 'error', title: 'Errors', field: 'import_errors' },
  { kind: 'warning', title: 'Warnings', field: 'import_warnings' },
  { kind: 'success', title: 'Imported', field: 'imported' },
];

/**
 * The results summed per kind, then per type with the first row's reference and message: what went wrong is read
 * here first, and each type opens its rows in the results below.
 */
export function MigrationOutcomes({
  migration,
  onShow,
}: {
  migration: LegacyMigration;
  onShow: (filter: { kind?: MigrationResultKind; type?: MigrationResultType }) => void;
}) {
  const totals = outcomeTotalsOf(migration);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-outcomes-title">
      <Title order={2} size="h4" id="migration-outcomes-title" mb="sm">
        Results summary
      </Title>
      {migration.warnings.length > 0 && (
        <Stack gap={2} mb="sm">
          <Text size="sm" fw={600}>
            About the file
          </Text>
          {migration.warnings.map((warning) => (
            <Text key={`${warning.type}-${warning.message ?? ''}`} size="sm">
              {RESULT_TYPE_LABELS[warning.type]}
              {warning.message === undefined ? '' : `: ${warning.message}`}
            </Text>
          ))}
        </Stack>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {KIND_SECTIONS.map(({ kind, title, field }) => (
          <Stack key={kind} gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap">
                <ResultKindBadge kind={kind} />
                <Text fw={600} data-testid={`outcome-${kind}`}>
                  {formatNumber(totals[kind])} {title.toLowerCase()}
                </Text>
              </Group>
              {totals[kind] > 0 && (
                <Button variant="subtle" size="compact-xs" onClick={() => onShow({ kind })} aria-label={`Show the ${title.toLowerCase()} rows`}>
                  Show rows
                </Button>
              )}
            </Group>
            {migration[field].length === 0 && (
              <Text size="sm" c="dimmed">
                None.
              </Text>
            )}
            {migration[field].map((issue) => (
              <Stack key={issue.type} gap={0}>
                <Group gap={6} wrap="nowrap" justify="space-between">
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    px={0}
                    onClick={() => onShow({ type: issue.type })}
                    aria-label={`Show the ${formatNumber(issue.count ?? 0)} rows: ${RESULT_TYPE_LABELS[issue.type]}`}
                    styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
                  >
                    {RESULT_TYPE_LABELS[issue.type]}
                  </Button>
                  <Text size="sm" fw={600}>
                    {formatNumber(issue.count ?? 0)}
                  </Text>
                </Group>
                {kind !== 'success' && issue.message !== undefined && (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    First{issue.reference === undefined ? '' : ` (${issue.reference})`}: {issue.message}
                  </Text>
                )}
              </Stack>
            ))}
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
