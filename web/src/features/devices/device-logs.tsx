import { Badge, Select, SimpleGrid, Stack } from '@mantine/core';
import { LOG_LEVELS, type LogLevel } from '#shared/constants/devices.ts';
import type { DeviceLog } from '#shared/contract/entities/logs.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useDeviceLogs } from './api/list-device-logs.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { DebouncedTextFilter, InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { compactQuery, invertedRange } from '../../lib/search-params.ts';
import { type DeviceLogsSearch } from './filters.ts';
import { LOG_LEVEL_LABELS, optionsOf } from '../../lib/labels.ts';
import { DeviceLink } from './links.tsx';

const LEVEL_COLOURS: Record<LogLevel, string> = { DEBUG: 'gray', INFO: 'blue', WARN: 'yellow', ERROR: 'red' };

const COLUMNS: readonly Column<DeviceLog>[] = [
  { header: 'Time', value: (row) => row.log_datetime, render: (row) => formatDateTime(row.log_datetime) },
  {
    header: 'Level',
    value: (row) => row.log_level,
    render: (row) => (
      <Badge miw="max-content" color={LEVEL_COLOURS[row.log_level]} variant="light">
        {LOG_LEVEL_LABELS[row.log_level]}
      </Badge>
    ),
  },
  { header: 'Class', value: (row) => row.log_class ?? '' },
  { header: 'Message', value: (row) => row.log_message },
  {
    header: 'Device',
    value: (row) => row.device_reference ?? '',
    render: (row) =>
      row.device_reference === undefined ? '—' : <DeviceLink deviceReference={row.device_reference}>{row.device_reference}</DeviceLink>,
  },
  { header: 'Device user', value: (row) => row.device_user_reference ?? '' },
  { header: 'Time zone', value: (row) => row.local_timezone ?? '' },
  { header: 'Payload', value: (row) => row.payload_reference ?? '' },
];

/** Device logs across devices, with every filter `GET device_logs` offers. */
export function DeviceLogs({ search, onSearch }: { search: DeviceLogsSearch; onSearch: (next: DeviceLogsSearch) => void }) {
  const list = useDeviceLogs(compactQuery(search), !invertedRange(search.from, search.to));
  const set = (patch: Partial<DeviceLogsSearch>) => onSearch({ ...search, ...patch });
  return (
    <Stack>
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 5 }}
        component="form"
        role="search"
        aria-label="Filter device logs"
        onSubmit={(event) => event.preventDefault()}
      >
        <Select
          label="Level"
          placeholder="Any level"
          clearable
          data={optionsOf(LOG_LEVELS, LOG_LEVEL_LABELS)}
          value={search.log_level ?? null}
          onChange={(value) => set({ log_level: (value ?? undefined) as LogLevel | undefined })}
        />
        <DebouncedTextFilter label="Device reference" value={search.device_reference} onApply={(value) => set({ device_reference: value })} />
        <DebouncedTextFilter label="Group" value={search.group} onApply={(value) => set({ group: value })} />
        <DateRangeFilter from={search.from} to={search.to} onChange={(range) => set(range)} />
      </SimpleGrid>
      <InvertedRangeNotice from={search.from} to={search.to} />
      <CursorTable
        label="Device logs"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => row.log_id}
        {...pagingOf(list)}
        empty="No logs match these filters."
      />
    </Stack>
  );
}
