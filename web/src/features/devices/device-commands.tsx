import { Badge, Code, Select, Stack } from '@mantine/core';
import { DEVICE_COMMAND_STATES, type DeviceCommandState } from '#shared/constants/devices.ts';
import type { DeviceCommand } from '#shared/contract/entities/devices.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { COMMAND_STATE_LABELS, optionsOf } from '../../lib/labels.ts';
import { useDeviceCommands } from './api/list-device-commands.ts';
import { actorName } from '../../lib/actor-name.ts';

const STATE_COLOURS: Record<DeviceCommandState, string> = { Sent: 'blue', Acknowledged: 'yellow', Completed: 'green', Failed: 'red' };

const COLUMNS: readonly Column<DeviceCommand>[] = [
  { header: 'Command', value: (row) => row.command },
  {
    header: 'Parameters',
    value: (row) => (row.params === undefined ? '' : JSON.stringify(row.params)),
    render: (row) => (row.params === undefined ? '—' : <Code>{JSON.stringify(row.params)}</Code>),
  },
  {
    header: 'State',
    value: (row) => row.state,
    render: (row) => (
      <Badge miw="max-content" color={STATE_COLOURS[row.state]} variant="light" tt="none">
        {COMMAND_STATE_LABELS[row.state]}
      </Badge>
    ),
  },
  { header: 'Raised by', value: (row) => (row.raised_by === undefined ? '' : actorName(row.raised_by_actor, row.raised_by)) },
  { header: 'Sent', value: (row) => row.sent_at ?? '', render: (row) => formatDateTime(row.sent_at) },
  { header: 'Completed', value: (row) => row.completed_at ?? '', render: (row) => formatDateTime(row.completed_at) },
  { header: 'Reference', value: (row) => row.command_reference },
];

/** The commands sent to one device, newest first, filtered by state; refreshed while one is still pending. */
export function DeviceCommands({
  deviceReference,
  state,
  onState,
}: {
  deviceReference: string;
  state: DeviceCommandState | undefined;
  onState: (state: DeviceCommandState | undefined) => void;
}) {
  const list = useDeviceCommands(deviceReference, state);
  return (
    <Stack gap="sm">
      <Select
        label="Command state"
        placeholder="Any state"
        clearable
        data={optionsOf(DEVICE_COMMAND_STATES, COMMAND_STATE_LABELS)}
        value={state ?? null}
        onChange={(value) => onState((value ?? undefined) as DeviceCommandState | undefined)}
        maw={240}
      />
      <CursorTable
        label="Device commands"
        columns={COLUMNS}
        rows={list.items}
        rowKey={(row) => row.command_reference}
        {...pagingOf(list)}
        empty={state === undefined ? 'No commands have been sent to this device.' : `No ${state} commands.`}
      />
    </Stack>
  );
}
