import { Badge, Checkbox, Group, Select, SimpleGrid, Stack } from '@mantine/core';
import { SERVICES } from '#shared/constants/devices.ts';
import type { Device } from '#shared/contract/entities/devices.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useDevices } from './api/list-devices.ts';
import { deviceName, deviceStatus, holderName, STATUS_COLOURS } from '../../lib/device-labels.ts';
import { DeviceLink, DeviceUserLink } from './links.tsx';
import { DebouncedTextFilter } from '../../components/filters/filter-inputs.tsx';
import { compactQuery } from '../../lib/search-params.ts';
import { labelOf, SERVICE_LABELS } from '../../lib/labels.ts';
import { LegalHoldBadge } from '../../components/data/legal-hold-badge.tsx';
import { type DevicesSearch } from './filters.ts';

const COLUMNS: readonly Column<Device>[] = [
  {
    header: 'Device',
    value: (row) => deviceName(row),
    render: (row) => <DeviceLink deviceReference={row.device_reference}>{deviceName(row)}</DeviceLink>,
  },
  {
    header: 'Device user',
    value: (row) => holderName(row) ?? row.device_user_reference ?? '',
    render: (row) =>
      row.device_user_reference === undefined ? (
        '—'
      ) : (
        <DeviceUserLink deviceUserReference={row.device_user_reference}>
          {holderName(row) ?? row.device_user_reference}
        </DeviceUserLink>
      ),
  },
  { header: 'Group', value: (row) => row.group ?? '' },
  { header: 'OS', value: (row) => row.os_version ?? '' },
  { header: 'App', value: (row) => row.app_version ?? '' },
  {
    header: 'Status',
    value: (row) => `${deviceStatus(row)}${row.is_legacy ? ' (legacy)' : ''}${row.held_by === undefined ? '' : ' (held)'}`,
    render: (row) => (
      <Group gap={4}>
        <Badge miw="max-content" color={STATUS_COLOURS[deviceStatus(row)]} variant="light" tt="none">
          {deviceStatus(row)}
        </Badge>
        {row.is_legacy && (
          <Badge miw="max-content" color="gray" variant="outline" tt="none">
            Legacy
          </Badge>
        )}
        <LegalHoldBadge heldBy={row.held_by} />
      </Group>
    ),
  },
  {
    header: 'Last seen',
    value: (row) => row.last_seen ?? '',
    render: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.last_seen)}</span>,
  },
];

/** The devices list with every filter `GET devices` offers; filters live in the URL (`search`). */
export function DeviceList({ search, onSearch }: { search: DevicesSearch; onSearch: (next: DevicesSearch) => void }) {
  const { active_only: activeOnly, ...text } = search;
  const list = useDevices({ ...compactQuery(text), ...(activeOnly ? { active_only: 'true' } : {}) });
  const set = (patch: Partial<DevicesSearch>) => onSearch({ ...search, ...patch });

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} component="form" role="search" aria-label="Filter devices" onSubmit={(event) => event.preventDefault()}>
        <DebouncedTextFilter
          label="Search"
          placeholder="Name, email or reference"
          value={search.search}
          onApply={(value) => set({ search: value })}
        />
        <DebouncedTextFilter label="Group" value={search.group} onApply={(value) => set({ group: value })} />
        <DebouncedTextFilter
          label="Device user reference"
          value={search.device_user_reference}
          maxLength={60}
          onApply={(value) => set({ device_user_reference: value })}
        />
        <Select
          label="Service"
          placeholder="Any service"
          clearable
          data={SERVICES.map((service) => ({ value: service, label: serviceLabel(service) }))}
          value={search.service ?? null}
          onChange={(value) => set({ service: (value ?? undefined) as DevicesSearch['service'] })}
        />
      </SimpleGrid>
      <Checkbox
        label="Active devices only"
        checked={search.active_only === true}
        onChange={(event) => set({ active_only: event.currentTarget.checked || undefined })}
      />
      <CursorTable
        label="Devices"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => row.device_reference}
        {...pagingOf(list)}
        empty="No devices match these filters."
      />
    </Stack>
  );
}

function serviceLabel(service: string): string {
  return labelOf(SERVICE_LABELS, service);
}
