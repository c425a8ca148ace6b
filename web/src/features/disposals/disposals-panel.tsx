import { Badge, Button, Select, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { RETENTION_RECORD_TYPES } from '#shared/constants/account.ts';
import type { PayloadType } from '#shared/constants/payloads.ts';
import { DISPOSAL_ACTIONS, type Disposal } from '#shared/contract/entities/account-data.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { DISPOSAL_ACTION_LABELS, labelOf, optionsOf, PAYLOAD_TYPE_LABELS, RETENTION_RECORD_TYPE_LABELS, RETENTION_TIMESTAMP_LABELS } from '../../lib/labels.ts';
import { invertedRange } from '../../lib/search-params.ts';
import { useCan } from '../../lib/use-can.ts';
import { useDisposals } from './api/list-disposals.ts';
import { disposalQueryOf, type DisposalSearch } from './disposal-filters.ts';

/** The rule a disposal applied, in words: "delete after 2,557 days, destroy after 2,647 days". */
export function periodsText(disposal: Disposal): string {
  const { policy } = disposal;
  const parts = [
    policy.delete_after_days === undefined ? undefined : `delete after ${formatNumber(policy.delete_after_days)} days`,
    policy.destroy_after_days === undefined ? undefined : `destroy after ${formatNumber(policy.destroy_after_days)} days`,
  ].filter(Boolean);
  return parts.join(', ') || 'no period';
}

/** Where the periods counted from: "receipt confirmed, 24 Nov 2026, 10:25" (a record's own time for other types). */
export function baseText(disposal: Disposal): string {
  const { policy } = disposal;
  const from = policy.retention_timestamp === undefined ? 'its own time' : labelOf(RETENTION_TIMESTAMP_LABELS, policy.retention_timestamp).toLowerCase();
  return `counted from ${from}, ${formatDateTime(policy.base_time)}`;
}

/**
 * Disposal records: every record the retention job deleted or destroyed, under which rule and when. `recordingLink`
 * links a recording's reference to its page (where a deleted one can be restored).
 */
export function DisposalsPanel({
  search,
  onSearch,
  recordingLink,
}: {
  search: DisposalSearch;
  onSearch: (patch: Partial<DisposalSearch>) => void;
  recordingLink: (type: PayloadType, reference: string) => ReactNode;
}) {
  const can = useCan('disposals:List');
  const bad = invertedRange(search.disposed_from, search.disposed_to);
  const list = useDisposals(disposalQueryOf(search), can.allowed && !bad);
  if (!can.allowed) return <Text c="dimmed">{can.reason}</Text>;

  const columns: Column<Disposal>[] = [
    {
      header: 'When',
      value: (row) => row.disposed_at,
      render: (row) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.disposed_at)}
        </Text>
      ),
    },
    {
      header: 'Action',
      value: (row) => DISPOSAL_ACTION_LABELS[row.action],
      render: (row) => (
        <Badge color={row.action === 'Destroyed' ? 'dark' : 'gray'} variant={row.action === 'Destroyed' ? 'filled' : 'light'} tt="none" miw="max-content">
          {DISPOSAL_ACTION_LABELS[row.action]}
        </Badge>
      ),
    },
    {
      header: 'Record type',
      value: (row) => `${labelOf(RETENTION_RECORD_TYPE_LABELS, row.record_type)}${row.payload_type ? `: ${labelOf(PAYLOAD_TYPE_LABELS, row.payload_type)}` : ''}`,
    },
    {
      header: 'Record',
      value: (row) => row.reference,
      render: (row) => (row.record_type === 'PayloadData' && row.payload_type !== undefined ? recordingLink(row.payload_type, row.reference) : row.reference),
    },
    {
      header: 'Rule applied',
      value: (row) => `${periodsText(row)}; ${baseText(row)}`,
      render: (row) => (
        <Stack gap={0} miw={220}>
          <Text size="sm">{periodsText(row)}</Text>
          <Text size="xs" c="dimmed">
            {baseText(row)}
          </Text>
        </Stack>
      ),
    },
    {
      header: 'Checksum',
      value: (row) => row.checksum ?? '',
      render: (row) =>
        row.checksum ? (
          <Tooltip label={row.checksum} withArrow>
            <Text size="xs" ff="monospace" tabIndex={0} aria-label={`SHA-256 ${row.checksum}`}>
              {row.checksum.slice(0, 12)}…
            </Text>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      header: 'Run',
      value: (row) => row.run_id,
      // A run's id opens the records of that run alone.
      render: (row) => (
        <Tooltip label={row.run_id} withArrow>
          <Button variant="subtle" size="compact-xs" ff="monospace" onClick={() => onSearch({ run_id: row.run_id })} aria-label={`Show only run ${row.run_id}`}>
            {row.run_id.slice(0, 10)}…
          </Button>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Every record the retention job deleted or destroyed is listed here, with the rule it applied. Deleted recordings can be restored from their page
        until they are destroyed.
      </Text>
      <Stack gap="xs" component="form" role="search" aria-label="Filter disposal records" onSubmit={(event) => event.preventDefault()}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <DateRangeFilter from={search.disposed_from} to={search.disposed_to} onChange={(range) => onSearch({ disposed_from: range.from, disposed_to: range.to })} />
          <Select
            label="Record type"
            placeholder="Any"
            clearable
            data={optionsOf(RETENTION_RECORD_TYPES, RETENTION_RECORD_TYPE_LABELS)}
            value={search.record_type ?? null}
            onChange={(value) => onSearch({ record_type: (value ?? undefined) as DisposalSearch['record_type'] })}
          />
          <Select
            label="Action"
            placeholder="Any"
            clearable
            data={optionsOf(DISPOSAL_ACTIONS, DISPOSAL_ACTION_LABELS)}
            value={search.disposal ?? null}
            onChange={(value) => onSearch({ disposal: (value ?? undefined) as DisposalSearch['disposal'] })}
          />
          <DebouncedTextFilter label="Retention run" placeholder="Run id" maxLength={64} value={search.run_id} onApply={(value) => onSearch({ run_id: value })} />
        </SimpleGrid>
        <InvertedRangeNotice from={search.disposed_from} to={search.disposed_to} />
      </Stack>
      <CursorTable
        label="Disposal records"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.disposal_id}
        {...pagingOf(list)}
        empty="No record matches these filters. Retention has deleted or destroyed nothing yet, or nothing in this range."
      />
    </Stack>
  );
}
