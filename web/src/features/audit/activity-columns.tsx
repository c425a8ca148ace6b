import { Anchor, Badge, Text, Tooltip } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { DeviceActivity, UserActivity } from '#shared/contract/entities/activity.ts';
import type { Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { deedOf, sentenceOf, whoOf, type ActivityRow } from './activity-sentence.ts';

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

/** Parameters as words ("device reference phone-1, thread id 7"), never raw JSON. */
export function parametersText(parameters: Record<string, unknown> | undefined): string {
  return Object.entries(parameters ?? {})
    .map(([name, value]) => `${name.replaceAll('_', ' ')} ${typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '…'}`)
    .join(', ');
}

const parameters = <T extends { parameters?: Record<string, unknown> | undefined }>(): Column<T> => ({
  header: 'Details',
  value: (row) => parametersText(row.parameters),
  // One line in the table (the whole text is in its title and in the CSV), so long parameters do not widen the list.
  render: (row) =>
    parametersText(row.parameters) === '' ? (
      '—'
    ) : (
      <Text size="xs" lineClamp={2} maw={220} title={parametersText(row.parameters)} style={{ wordBreak: 'break-all' }}>
        {parametersText(row.parameters)}
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

/**
 * The portal users' trail as sentences, one row per record or per run of folded reads ("viewed the recordings list 37
 * times", which opens to the time of each).
 */
export const USER_ACTIVITY_COLUMNS: readonly Column<ActivityRow>[] = [
  {
    header: 'Time',
    value: (row) => row.first.activity_time,
    render: (row) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(row.first.activity_time)}
      </Text>
    ),
  },
  {
    header: 'What happened',
    value: (row) => sentenceOf(row.first, row.records.length),
    render: (row) => <ActivitySentence row={row} />,
  },
  { ...firstOf(outcome<UserActivity>()) },
];

/** A column of one record, shown for a row by the row's newest record. */
function firstOf(column: Column<UserActivity>): Column<ActivityRow> {
  return { header: column.header, value: (row) => column.value(row.first), render: (row) => (column.render ?? column.value)(row.first) };
}

function ActivitySentence({ row }: { row: ActivityRow }) {
  const who = whoOf(row.first);
  const deed = deedOf(row.first, row.records.length);
  if (row.records.length === 1) {
    return (
      <Text size="sm">
        <Text span fw={600} inherit>
          {who}
        </Text>{' '}
        {deed}
      </Text>
    );
  }
  return (
    <details>
      <summary style={{ cursor: 'pointer' }}>
        <Text span size="sm">
          <Text span fw={600} inherit>
            {who}
          </Text>{' '}
          {deed}
        </Text>
      </summary>
      <Text size="xs" c="dimmed" component="ul" m={0} pl="md">
        {row.records.map((record) => (
          <li key={record.log_id}>{formatDateTime(record.activity_time)}</li>
        ))}
      </Text>
    </details>
  );
}

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
