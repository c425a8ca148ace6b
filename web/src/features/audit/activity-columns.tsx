import { Anchor, Badge, Text, Tooltip } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { DeviceActivity, UserActivity } from '#shared/contract/entities/activity.ts';
import type { Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';

const outcome = <T extends { is_allowed: boolean; denial_reason?: string | undefined }>(): Column<T> => ({
  header: 'Outcome',
  value: (row) => (row.is_allowed ? 'Allowed' : `Refused${row.denial_reason ? `: ${row.denial_reason}` : ''}`),
  render: (row) =>
    row.is_allowed ? (
      <Badge miw="max-content" color="teal" variant="light" tt="none">
        Allowed
      </Badge>
    ) : (
      <Tooltip label={row.denial_reason ?? 'No reason recorded'} multiline maw={320}>
        <Badge miw="max-content" color="red" variant="light" tt="none" tabIndex={0}>
          Refused
        </Badge>
      </Tooltip>
    ),
});

const parameters = <T extends { parameters?: Record<string, unknown> | undefined }>(): Column<T> => ({
  header: 'Parameters',
  value: (row) => (row.parameters === undefined ? '' : JSON.stringify(row.parameters)),
  // One line in the table (the whole text is in its title and in the CSV), so long parameters do not widen the list.
  render: (row) =>
    row.parameters === undefined || Object.keys(row.parameters).length === 0 ? (
      '—'
    ) : (
      <Text size="xs" ff="monospace" lineClamp={2} maw={220} title={JSON.stringify(row.parameters)} style={{ wordBreak: 'break-all' }}>
        {JSON.stringify(row.parameters)}
      </Text>
    ),
});

const time = <T extends { activity_time: string }>(): Column<T> => ({
  header: 'Time',
  value: (row) => row.activity_time,
  render: (row) => (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(row.activity_time)}
    </Text>
  ),
});

export const USER_ACTIVITY_COLUMNS: readonly Column<UserActivity>[] = [
  time<UserActivity>(),
  {
    header: 'Who',
    value: (row) => `${row.user_id}${row.is_client_app ? ' (app)' : ''}${row.support_reference ? ` (support ${row.support_reference})` : ''}`,
    render: (row) => (
      <>
        <Text size="sm">{row.user_id}</Text>
        {row.is_client_app && (
          <Text size="xs" c="dimmed">
            Client app
          </Text>
        )}
        {row.support_reference !== undefined && (
          <Text size="xs" c="dimmed">
            Provider support ({row.support_reference})
          </Text>
        )}
      </>
    ),
  },
  { header: 'Action', value: (row) => row.action },
  outcome<UserActivity>(),
  { header: 'Roles', value: (row) => row.roles.join('; ') },
  { header: 'Address', value: (row) => row.user_ip ?? '' },
  { header: 'Status', value: (row) => row.status_code ?? '' },
  parameters<UserActivity>(),
];

export const DEVICE_ACTIVITY_COLUMNS: readonly Column<DeviceActivity>[] = [
  time<DeviceActivity>(),
  {
    header: 'Device',
    value: (row) => row.device_reference ?? '',
    render: (row) =>
      row.device_reference === undefined ? (
        '—'
      ) : (
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference: row.device_reference ?? '' }} />} underline="always" style={{ wordBreak: 'break-all' }}>
          {row.device_reference}
        </Anchor>
      ),
  },
  {
    header: 'Device user',
    value: (row) => row.device_user_reference ?? '',
    render: (row) =>
      row.device_user_reference === undefined ? (
        '—'
      ) : (
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: row.device_user_reference ?? '' }} />} underline="always">
          {row.device_user_reference}
        </Anchor>
      ),
  },
  { header: 'Group', value: (row) => row.group ?? '' },
  { header: 'Action', value: (row) => row.action },
  outcome<DeviceActivity>(),
  { header: 'Address', value: (row) => row.device_ip ?? '' },
  { header: 'Status', value: (row) => row.status_code ?? '' },
  parameters<DeviceActivity>(),
];
