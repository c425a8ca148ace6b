import { Group, Stack } from '@mantine/core';
import type { DeviceTelemetry } from '#shared/contract/entities/telemetry.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useDeviceTelemetry } from './api/list-device-telemetry.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { compactQuery, invertedRange } from '../../lib/search-params.ts';

type Telemetry = DeviceTelemetry;

const yesNo = (value: boolean | undefined) => (value === undefined ? '' : value ? 'Yes' : 'No');

/** Bytes as GB with one decimal ("68.7 GB"): storage sizes are what an admin compares. */
export function gigabytes(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  return `${new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format(bytes / 1e9)} GB`;
}

const COLUMNS: readonly Column<Telemetry>[] = [
  { header: 'Received', value: (row) => row.received_at, render: (row) => formatDateTime(row.received_at) },
  { header: 'Collected', value: (row) => row.collected_at ?? '', render: (row) => formatDateTime(row.collected_at) },
  {
    header: 'Battery',
    value: (row) => (row.health?.battery_level === undefined ? '' : `${row.health.battery_level}%`),
    render: (row) =>
      row.health?.battery_level === undefined ? '—' : `${formatNumber(row.health.battery_level)}%${row.health.is_charging ? ' (charging)' : ''}`,
  },
  {
    header: 'Storage free',
    value: (row) => gigabytes(row.health?.storage_free_bytes),
    render: (row) =>
      row.health?.storage_free_bytes === undefined
        ? '—'
        : `${gigabytes(row.health.storage_free_bytes)} of ${gigabytes(row.health.storage_total_bytes) || '—'}`,
  },
  { header: 'Wi-Fi connected', value: (row) => yesNo(row.health?.wifi_connected) },
  { header: 'SIM', value: (row) => row.health?.sim_state ?? '' },
  { header: 'Knox', value: (row) => (row.health?.knox_enabled ? `Yes ${row.health.knox_version ?? ''}`.trim() : yesNo(row.health?.knox_enabled)) },
  {
    header: 'Permissions refused',
    value: (row) =>
      Object.entries(row.health?.permissions ?? {})
        .filter(([, granted]) => !granted)
        .map(([name]) => name)
        .join(', ') || (row.health?.permissions ? 'None' : ''),
  },
  { header: 'Network', value: (row) => row.telecom?.network_operator_name ?? row.telecom?.network_operator ?? '' },
  {
    header: 'Signal (dBm)',
    value: (row) => (row.telecom?.signal_strength === undefined ? '' : String(row.telecom.signal_strength)),
  },
  { header: 'Apps', value: (row) => (row.applications === undefined ? '' : String(row.applications.length)) },
];

/** Telemetry reports of one device, newest first, between two optional days. */
export function DeviceTelemetryList({
  deviceReference,
  from,
  to,
  onRange,
}: {
  deviceReference: string;
  from: string | undefined;
  to: string | undefined;
  onRange: (range: { from: string | undefined; to: string | undefined }) => void;
}) {
  const list = useDeviceTelemetry(deviceReference, compactQuery({ from, to }), !invertedRange(from, to));
  return (
    <Stack gap="sm">
      <Group align="flex-end">
        <DateRangeFilter from={from} to={to} onChange={onRange} fromLabel="Telemetry from" toLabel="Telemetry to" />
      </Group>
      <InvertedRangeNotice from={from} to={to} />
      <CursorTable
        label="Device telemetry"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => `${row.received_at}/${row.collected_at ?? ''}`}
        {...pagingOf(list)}
        empty="No telemetry reports in this period."
      />
    </Stack>
  );
}
