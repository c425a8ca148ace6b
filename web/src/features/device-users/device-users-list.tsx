import { Anchor, Badge, Group, Modal, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { DeviceUser } from '#shared/contract/entities/device-users.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { createDeviceUser } from './api/create-device-user.ts';
import { useDeviceUsers } from './api/list-device-users.ts';
import { DeviceUserForm } from './device-user-form.tsx';
import { deviceUserName, serviceLabel } from './device-user-form-model.ts';
import { LegalHoldBadge } from '../../components/data/legal-hold-badge.tsx';
import { useGroupOptions } from './api/list-groups.ts';

/** The list's filters as kept in the URL (the route's validateSearch parses them). */
export interface DeviceUsersFilters {
  /** `active`: onboarded only (the endpoint's active_only); absent: everyone. */
  status?: 'active' | undefined;
  group?: string | undefined;
  service?: Service | undefined;
  search?: string | undefined;
}

export function ActivityBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? 'green' : 'gray'} variant="dot">
      {active ? 'Onboarded' : 'Offboarded'}
    </Badge>
  );
}

const columns: readonly Column<DeviceUser>[] = [
  {
    header: 'Reference',
    value: (row) => row.device_user_reference,
    render: (row) => (
      <Anchor
        renderRoot={(props) => (
          <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: row.device_user_reference }} />
        )}
      >
        {row.device_user_reference}
      </Anchor>
    ),
  },
  { header: 'Name', value: (row) => deviceUserName(row) },
  { header: 'Email', value: (row) => row.email ?? '' },
  { header: 'Group', value: (row) => row.group ?? '' },
  { header: 'Services', value: (row) => row.services.map(serviceLabel).join(', ') },
  { header: 'Expected devices', value: (row) => row.expected_device_count, render: (row) => formatNumber(row.expected_device_count) },
  {
    header: 'Status',
    value: (row) => `${row.is_active ? 'Onboarded' : 'Offboarded'}${row.held_by === undefined ? '' : ' (held)'}`,
    render: (row) => (
      <Group gap={4} wrap="nowrap">
        <ActivityBadge active={row.is_active} />
        <LegalHoldBadge heldBy={row.held_by} />
      </Group>
    ),
  },
  { header: 'Onboarded on', value: (row) => row.onboard_date ?? '', render: (row) => formatDate(row.onboard_date) },
  { header: 'Offboarded on', value: (row) => row.offboard_date ?? '', render: (row) => formatDate(row.offboard_date) },
];

/** Device users, filtered as the URL says; "Add device user" onboards one in a modal. */
export function DeviceUsersScreen({
  filters,
  onFiltersChange,
  onCreated,
}: {
  filters: DeviceUsersFilters;
  onFiltersChange: (next: DeviceUsersFilters) => void;
  onCreated: (user: DeviceUser) => void;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const query = {
    ...(filters.status === 'active' ? { active_only: 'true' as const } : {}),
    ...(filters.group === undefined ? {} : { group: filters.group }),
    ...(filters.service === undefined ? {} : { service: filters.service }),
    ...(filters.search === undefined ? {} : { search: filters.search }),
  };
  const list = useDeviceUsers(query);
  const filtered = Object.keys(query).length > 0;

  return (
    <>
      <PageHeader
        title="Device users"
        description="The people devices are assigned to. Offboarded users keep their records under the retention policy."
        actions={
          <PermittedButton action={createDeviceUser.action} onClick={open}>
            Add device user
          </PermittedButton>
        }
      />
      <DeviceUsersFiltersBar filters={filters} onChange={onFiltersChange} />
      <CursorTable
        label="Device users"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.device_user_reference}
        {...pagingOf(list)}
        empty={filtered ? 'No device user matches these filters.' : 'No device users yet. Add one to get started.'}
      />
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={close} title="Add device user" size="lg">
        <DeviceUserForm
          onDone={(user) => {
            close();
            notifySaved(`${deviceUserName(user)} added.`);
            onCreated(user);
          }}
        />
      </Modal>
    </>
  );
}

function DeviceUsersFiltersBar({ filters, onChange }: { filters: DeviceUsersFilters; onChange: (next: DeviceUsersFilters) => void }) {
  const groups = useGroupOptions();
  const [text, setText] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(text.trim(), 400);
  useEffect(() => {
    const next = debounced === '' ? undefined : debounced.slice(0, 255);
    if (next !== filters.search) onChange({ ...filters, search: next });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the typed text navigates; the other filters pass through as they are.
  }, [debounced]);

  const groupData =
    filters.group !== undefined && !groups.options.includes(filters.group) ? [filters.group, ...groups.options] : groups.options;

  return (
    <Group mb="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Search"
        description="Name, email or reference (starts with)"
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        w={260}
      />
      <Select
        label="Group"
        placeholder="All groups"
        data={groupData}
        value={filters.group ?? null}
        onChange={(value) => onChange({ ...filters, group: value ?? undefined })}
        searchable
        clearable
        w={200}
      />
      <Select
        label="Service"
        placeholder="All services"
        data={SERVICES.map((service) => ({ value: service, label: serviceLabel(service) }))}
        value={filters.service ?? null}
        onChange={(value) => onChange({ ...filters, service: (value ?? undefined) as Service | undefined })}
        clearable
        w={170}
      />
      <div>
        <SegmentedControl
          aria-label="Status"
          value={filters.status ?? 'all'}
          onChange={(value) => onChange({ ...filters, status: value === 'active' ? 'active' : undefined })}
          data={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Onboarded only' },
          ]}
        />
      </div>
    </Group>
  );
}
