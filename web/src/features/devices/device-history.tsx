import type { DeviceHistory } from '#shared/contract/entities/devices.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useDeviceHistory } from './api/list-device-history.ts';
import { DeviceUserLink } from './links.tsx';

const COLUMNS: readonly Column<DeviceHistory>[] = [
  { header: 'From', value: (row) => row.from, render: (row) => formatDateTime(row.from) },
  { header: 'To', value: (row) => row.to ?? '', render: (row) => (row.to === undefined ? 'Now' : formatDateTime(row.to)) },
  {
    header: 'Device user',
    value: (row) => row.device_user_reference ?? '',
    render: (row) =>
      row.device_user_reference === undefined ? (
        '—'
      ) : (
        <DeviceUserLink deviceUserReference={row.device_user_reference}>{row.device_user_reference}</DeviceUserLink>
      ),
  },
  { header: 'Group', value: (row) => row.group ?? '' },
];

/** Who held the device, in which group, when. */
export function DeviceHistoryList({ deviceReference }: { deviceReference: string }) {
  const list = useDeviceHistory(deviceReference);
  return (
    <CursorTable
      label="Device history"
      columns={COLUMNS}
      rows={list.items}
      rowKey={(row) => `${row.from}/${row.device_user_reference ?? ''}/${row.group ?? ''}`}
      {...pagingOf(list)}
      empty="No change of holder or group is recorded for this device."
    />
  );
}
