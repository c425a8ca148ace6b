import { Alert, Group, Skeleton, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { Gps } from '#shared/contract/entities/gps.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useDeviceGps } from './api/list-device-gps.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { InvertedRangeNotice } from '../../components/filters/filter-inputs.tsx';
import { compactQuery, invertedRange } from '../../lib/search-params.ts';
import { type DeviceGpsSearch } from './filters.ts';
import { trackOrder } from '../../components/maps/gps-track.ts';

/**
 * Leaflet touches `window` when imported, so the map loads on demand: never on the server or in unit tests (which
 * import every route), and in a chunk of its own in the browser.
 */
const DeviceGpsMap = lazy(() => import('../../components/maps/device-gps-map.tsx').then((module) => ({ default: module.DeviceGpsMap })));

const COLUMNS: readonly Column<Gps>[] = [
  { header: 'Time', value: (row) => row.timestamp, render: (row) => formatDateTime(row.timestamp) },
  { header: 'Time zone', value: (row) => row.timezone ?? '' },
  { header: 'Latitude', value: (row) => row.latitude.toFixed(6) },
  { header: 'Longitude', value: (row) => row.longitude.toFixed(6) },
  {
    header: 'Accuracy (m)',
    value: (row) => (row.accuracy === undefined ? '' : String(row.accuracy)),
    render: (row) => formatNumber(row.accuracy),
  },
  {
    header: 'Altitude (m)',
    value: (row) => (row.altitude === undefined ? '' : String(row.altitude)),
    render: (row) => formatNumber(row.altitude),
  },
  { header: 'Provider', value: (row) => row.provider ?? '' },
];

/** The device's GPS fixes between two optional days: on the map (oldest to newest) and in the table (newest first). */
export function DeviceGpsView({
  deviceReference,
  search,
  onSearch,
}: {
  deviceReference: string;
  search: DeviceGpsSearch;
  onSearch: (next: DeviceGpsSearch) => void;
}) {
  const list = useDeviceGps(deviceReference, compactQuery({ from: search.from, to: search.to }), !invertedRange(search.from, search.to));
  const track = trackOrder(list.items);

  return (
    <Stack>
      <Group align="flex-end">
        <DateRangeFilter from={search.from} to={search.to} onChange={(range) => onSearch({ ...search, ...range })} />
      </Group>
      <InvertedRangeNotice from={search.from} to={search.to} />
      {list.error && !list.isLoading ? null : !list.isLoading && track.length === 0 ? (
        <Alert color="gray" title="No GPS points">
          The device reported no location in this period.
        </Alert>
      ) : (
        <>
          <Suspense fallback={<Skeleton height={420} />}>
            <DeviceGpsMap points={track} />
          </Suspense>
          <Text size="sm" c="dimmed">
            The line joins the points in time order; the larger red circle is the latest. Select a circle for its time and
            accuracy. Loading more points extends the track.
          </Text>
        </>
      )}
      <CursorTable
        label="GPS points"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => row.gps_reference}
        {...pagingOf(list)}
        empty="No GPS points in this period."
      />
    </Stack>
  );
}
