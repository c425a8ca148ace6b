import { Anchor, Badge, Group, SegmentedControl, Select, Tabs, Title } from '@mantine/core';
import { LOG_LEVELS, type LogLevel } from '#shared/constants/devices.ts';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Device } from '#shared/contract/entities/devices.ts';
import type { Gps } from '#shared/contract/entities/gps.ts';
import type { DeviceLog } from '#shared/contract/entities/logs.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { deviceName } from '../../lib/device-labels.ts';
import type { ActivityTab } from './activity-tabs.ts';
import { useDeviceUserDevices } from './api/list-device-user-devices.ts';
import { useDeviceUserGps } from './api/list-device-user-gps.ts';
import { useDeviceUserLogs } from './api/list-device-user-logs.ts';
import { LOG_LEVEL_LABELS, optionsOf } from '../../lib/labels.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';

/** The detail page's tab and its filters, as kept in the URL. Dates are YYYY-MM-DD (the API's DateTimeParam). */
export interface ActivityFilters {
  tab?: ActivityTab | undefined;
  active?: 'true' | undefined;
  level?: LogLevel | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** A device, linking to its page (or its GPS page): by its name (model and number) when given, else its reference. */
function DeviceLink({ reference, gps = false, label }: { reference: string; gps?: boolean; label?: string }) {
  return (
    <Anchor
      renderRoot={(props) =>
        gps ? (
          <Link {...props} to="/dashboard/devices/$deviceReference/gps" params={{ deviceReference: reference }} />
        ) : (
          <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference: reference }} />
        )
      }
    >
      {label ?? reference}
    </Anchor>
  );
}

const deviceColumns: readonly Column<Device>[] = [
  { header: 'Device', value: (row) => deviceName(row), render: (row) => <DeviceLink reference={row.device_reference} label={deviceName(row)} /> },
  { header: 'OS version', value: (row) => row.os_version ?? '' },
  { header: 'App version', value: (row) => row.app_version ?? '' },
  { header: 'Phone numbers', value: (row) => row.phone_numbers.map((phone) => phone.phone_number).join(', ') },
  { header: 'Last seen', value: (row) => row.last_seen ?? '', render: (row) => formatDateTime(row.last_seen) },
  {
    header: 'Status',
    value: (row) => (row.is_deactivated ? 'Deactivated' : 'Active'),
    render: (row) => (
      <Badge color={row.is_deactivated ? 'gray' : 'green'} variant="dot">
        {row.is_deactivated ? 'Deactivated' : 'Active'}
      </Badge>
    ),
  },
];

const logColumns: readonly Column<DeviceLog>[] = [
  { header: 'Time', value: (row) => row.log_datetime, render: (row) => formatDateTime(row.log_datetime) },
  { header: 'Level', value: (row) => row.log_level, render: (row) => LOG_LEVEL_LABELS[row.log_level] },
  { header: 'Device', value: (row) => row.device_reference ?? '', render: (row) => (row.device_reference ? <DeviceLink reference={row.device_reference} /> : '—') },
  { header: 'Class', value: (row) => row.log_class ?? '' },
  { header: 'Message', value: (row) => row.log_message },
];

const gpsColumns: readonly Column<Gps>[] = [
  { header: 'Time', value: (row) => row.timestamp, render: (row) => formatDateTime(row.timestamp) },
  { header: 'Device', value: (row) => row.device_reference ?? '', render: (row) => (row.device_reference ? <DeviceLink reference={row.device_reference} gps /> : '—') },
  { header: 'Latitude', value: (row) => row.latitude.toFixed(6) },
  { header: 'Longitude', value: (row) => row.longitude.toFixed(6) },
  { header: 'Accuracy (m)', value: (row) => row.accuracy ?? '', render: (row) => formatNumber(row.accuracy === undefined ? undefined : Math.round(row.accuracy)) },
  { header: 'Provider', value: (row) => row.provider ?? '' },
];

/** A device user's devices, logs and GPS fixes, one tab each; only the open tab loads. */
export function DeviceUserActivity({
  reference,
  filters,
  onChange,
  recordings,
}: {
  reference: string;
  filters: ActivityFilters;
  onChange: (next: ActivityFilters) => void;
  /** The user's recordings list (the route composes it from the recordings feature). */
  recordings?: ReactNode;
}) {
  const tab = filters.tab ?? 'devices';
  return (
    <Tabs value={tab} onChange={(value) => onChange({ ...filters, tab: (value ?? 'devices') as ActivityTab })} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="devices">Devices</Tabs.Tab>
        {recordings !== undefined && <Tabs.Tab value="recordings">Recordings</Tabs.Tab>}
        <Tabs.Tab value="logs">Logs</Tabs.Tab>
        <Tabs.Tab value="gps">GPS fixes</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="devices">
        <DevicesPanel reference={reference} filters={filters} onChange={onChange} />
      </Tabs.Panel>
      {recordings !== undefined && (
        <Tabs.Panel value="recordings">
          <section aria-labelledby="recordings-heading">
            <Title order={2} size="h4" id="recordings-heading" mb="sm">
              Recordings
            </Title>
            {recordings}
          </section>
        </Tabs.Panel>
      )}
      <Tabs.Panel value="logs">
        <LogsPanel reference={reference} filters={filters} onChange={onChange} />
      </Tabs.Panel>
      <Tabs.Panel value="gps">
        <GpsPanel reference={reference} filters={filters} onChange={onChange} />
      </Tabs.Panel>
    </Tabs>
  );
}

interface PanelProps {
  reference: string;
  filters: ActivityFilters;
  onChange: (next: ActivityFilters) => void;
}

function DevicesPanel({ reference, filters, onChange }: PanelProps) {
  const list = useDeviceUserDevices(reference, filters.active === 'true' ? { active_only: 'true' } : {});
  return (
    <section aria-labelledby="devices-heading">
      <Title order={2} size="h4" id="devices-heading" mb="sm">
        Devices
      </Title>
      <Group mb="sm">
        <SegmentedControl
          aria-label="Device status"
          value={filters.active === 'true' ? 'active' : 'all'}
          onChange={(value) => onChange({ ...filters, active: value === 'active' ? 'true' : undefined })}
          data={[
            { value: 'all', label: 'All devices' },
            { value: 'active', label: 'Active only' },
          ]}
        />
      </Group>
      <CursorTable
        label={`Devices of ${reference}`}
        columns={deviceColumns}
        rows={list.items}
        rowKey={(row) => row.device_reference}
        {...pagingOf(list)}
        empty="No devices are assigned to this user."
      />
    </section>
  );
}

function DateRange({ filters, onChange }: Omit<PanelProps, 'reference'>) {
  return <DateRangeFilter from={filters.from} to={filters.to} onChange={(days) => onChange({ ...filters, ...days })} />;
}

const range = (filters: ActivityFilters) => ({
  ...(filters.from === undefined ? {} : { from: filters.from }),
  ...(filters.to === undefined ? {} : { to: filters.to }),
});

function LogsPanel({ reference, filters, onChange }: PanelProps) {
  const list = useDeviceUserLogs(reference, { ...range(filters), ...(filters.level === undefined ? {} : { log_level: filters.level }) });
  return (
    <section aria-labelledby="logs-heading">
      <Title order={2} size="h4" id="logs-heading" mb="sm">
        Logs
      </Title>
      <Group mb="sm" align="flex-end">
        <Select
          label="Level"
          placeholder="All levels"
          data={optionsOf(LOG_LEVELS, LOG_LEVEL_LABELS)}
          value={filters.level ?? null}
          onChange={(value) => onChange({ ...filters, level: (value ?? undefined) as LogLevel | undefined })}
          clearable
          w={150}
        />
        <DateRange filters={filters} onChange={onChange} />
      </Group>
      <CursorTable
        label={`Logs of ${reference}`}
        columns={logColumns}
        rows={list.items}
        rowKey={(row) => row.log_id}
        {...pagingOf(list)}
        empty="No logs in this period."
      />
    </section>
  );
}

function GpsPanel({ reference, filters, onChange }: PanelProps) {
  const list = useDeviceUserGps(reference, range(filters));
  return (
    <section aria-labelledby="gps-heading">
      <Title order={2} size="h4" id="gps-heading" mb="sm">
        GPS fixes
      </Title>
      <Group mb="sm" align="flex-end">
        <DateRange filters={filters} onChange={onChange} />
      </Group>
      <CursorTable
        label={`GPS fixes of ${reference}`}
        columns={gpsColumns}
        rows={list.items}
        rowKey={(row) => row.gps_reference}
        {...pagingOf(list)}
        empty="No GPS fixes in this period."
      />
    </section>
  );
}
