import { Group, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { METRIC_SCOPES, type MetricScope } from '#shared/constants/devices.ts';
import { PAYLOAD_TYPES } from '#shared/constants/payloads.ts';
import type { DevicePayloadMetrics } from '#shared/contract/entities/metrics.ts';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { LineChart } from '../../components/charts/line-chart.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useMetrics } from './api/get-metrics.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { compactQuery, invertedRange } from '../../lib/search-params.ts';
import { type DeviceMetricsSearch } from './filters.ts';
import { DeviceLink } from './links.tsx';
import { METRIC_SCOPE_LABELS, optionsOf, PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { metricsSeries } from './metrics-series.ts';

/** Spec point 7: the metric scope defaults to Summary. */
export const DEFAULT_SCOPE: MetricScope = 'Summary';

const COLUMNS: readonly Column<DevicePayloadMetrics>[] = [
  {
    header: 'Device',
    value: (row) => row.device_reference,
    render: (row) => <DeviceLink deviceReference={row.device_reference}>{row.device_reference}</DeviceLink>,
  },
  { header: 'Period', value: (row) => row.period },
  ...PAYLOAD_TYPES.map(
    (type): Column<DevicePayloadMetrics> => ({
      header: PAYLOAD_TYPE_LABELS[type],
      value: (row) => String(row.counts[type] ?? 0),
      render: (row) => formatNumber(row.counts[type] ?? 0),
    }),
  ),
  { header: 'First', value: (row) => row.first_occurrence ?? '', render: (row) => formatDateTime(row.first_occurrence) },
  { header: 'Last', value: (row) => row.last_occurrence ?? '', render: (row) => formatDateTime(row.last_occurrence) },
];

/** Payload counts per device and period for one scope, charted across devices, with the table of numbers. */
export function DeviceMetrics({ search, onSearch }: { search: DeviceMetricsSearch; onSearch: (next: DeviceMetricsSearch) => void }) {
  const scope = search.scope ?? DEFAULT_SCOPE;
  const { scope: _scope, ...filters } = search;
  const list = useMetrics(scope, { ...compactQuery(filters), limit: '100' }, !invertedRange(search.from, search.to));
  const set = (patch: Partial<DeviceMetricsSearch>) => onSearch({ ...search, ...patch });
  const { periods, series, totals } = metricsSeries(list.items);
  const shown = `${formatNumber(list.items.length)} row${list.items.length === 1 ? '' : 's'} loaded${list.hasNextPage ? ' (load more below to include the rest)' : ''}`;

  return (
    <Stack>
      <SegmentedControl
        aria-label="Scope"
        value={scope}
        onChange={(value) => set({ scope: value === DEFAULT_SCOPE ? undefined : (value as MetricScope) })}
        data={optionsOf(METRIC_SCOPES, METRIC_SCOPE_LABELS)}
        style={{ alignSelf: 'flex-start' }}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} component="form" role="search" aria-label="Filter metrics" onSubmit={(event) => event.preventDefault()}>
        <DebouncedTextFilter label="Device reference" value={search.device_reference} onApply={(value) => set({ device_reference: value })} />
        <DateRangeFilter from={search.from} to={search.to} onChange={(range) => set(range)} />
      </SimpleGrid>
      <InvertedRangeNotice from={search.from} to={search.to} />
      {!list.isLoading && list.items.length > 0 && (
        <>
          <Text size="sm" c="dimmed">
            Charts add up every device in the {shown}.
          </Text>
          <SimpleGrid cols={{ base: 1, lg: scope === 'Summary' ? 1 : 2 }} spacing="lg">
            {scope !== 'Summary' && (
              <Paper withBorder p="md">
                <LineChart title={`Payloads per ${periodWord(scope)}, by type`} categories={periods} series={series} />
              </Paper>
            )}
            <Paper withBorder p="md">
              <BarChart title="Payloads by type" labelHeader="Payload type" valueHeader="Payloads" data={totals} />
            </Paper>
          </SimpleGrid>
        </>
      )}
      <Group justify="space-between">
        <Text fw={600} component="h2" size="lg" m={0}>
          Numbers by device and {scope === 'Summary' ? 'all time' : periodWord(scope)}
        </Text>
      </Group>
      <CursorTable
        label={`Device metrics (${scope})`}
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => `${row.device_reference}/${row.period}`}
        {...pagingOf(list)}
        empty="No payloads recorded for these filters."
      />
    </Stack>
  );
}

function periodWord(scope: MetricScope): string {
  return { Daily: 'day', Weekly: 'week', Monthly: 'month', Yearly: 'year', Summary: 'period' }[scope];
}
