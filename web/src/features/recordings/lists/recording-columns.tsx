import { Badge, Checkbox, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import type { Column } from '../../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatDuration, PAYLOAD_STATE_COLOURS, PAYLOAD_STATE_LABELS, PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import type { RecordingKind } from '../shared/kinds.ts';
import { deviceLabel, recordingTitle } from '../shared/recording-title.ts';
import { DeviceLink, DeviceUserLink, RecordingLink } from './links.tsx';
import { outcomeText, type RowOutcome } from './row-outcome.ts';
import { LegalHoldBadge } from '../../../components/data/legal-hold-badge.tsx';
import type { Selection } from './use-selection.ts';

/** Which columns a screen shows: the shared ones plus the few its recordings carry (parties, length). */
function wants(kind: RecordingKind) {
  return {
    type: kind === 'calls' || kind === 'messages' || kind === 'all',
    // Messages show their parties as the thread's label.
    parties: kind === 'calls' || kind === 'all',
    length: kind === 'calls' || kind === 'interviews' || kind === 'videos' || kind === 'all',
  };
}

const partiesOf = (row: Payload) => (row.second_party_numbers ?? '').split(',').filter((entry) => entry.length > 0).join(', ');
const deviceOf = (row: Payload) => deviceLabel({ model: row.device_model, phone_number: row.device_phone_number });

/** Dates and times stay on one line: a table of 1440 px fits them, and a date broken over three lines reads badly. */
const oneLine = { whiteSpace: 'nowrap' } as const;

/**
 * A cell that may be long (parties, a device, a group, a name): one line cut with an ellipsis at `width`, the whole
 * text in its title, so every recordings list fits a 1440 px screen without scrolling sideways.
 */
function Clipped({ width, full, children }: { width: number; full: string; children: ReactNode }) {
  return (
    <Text size="sm" truncate="end" maw={width} title={full}>
      {children}
    </Text>
  );
}

/** The columns of a recordings table; the first is the row's checkbox when the screen offers bulk actions. */
export function recordingColumns(
  kind: RecordingKind,
  options: { selection?: Selection; outcomes: ReadonlyMap<string, RowOutcome>; scope: 'tenant' | 'device' | 'deviceUser' },
): Column<Payload>[] {
  const show = wants(kind);
  const { selection, outcomes, scope } = options;
  const columns: (Column<Payload> | false)[] = [
    selection !== undefined && {
      header: 'Select',
      exportable: false,
      value: () => '',
      render: (row) => (
        <Checkbox
          aria-label={`Select ${recordingTitle(row)}`}
          checked={selection.isSelected(row.payload_reference)}
          disabled={!selection.isSelected(row.payload_reference) && selection.isFull}
          onChange={() => selection.toggle(row.payload_reference)}
        />
      ),
    },
    {
      header: 'Recorded',
      value: (row) => row.payload_time ?? '',
      render: (row) => (
        <Text size="xs" style={oneLine}>
          <RecordingLink type={row.payload_type} reference={row.payload_reference} title={recordingTitle(row)}>
            {formatDateTime(row.payload_time)}
          </RecordingLink>
        </Text>
      ),
    },
    show.type && {
      header: 'Type',
      value: (row) => PAYLOAD_TYPE_LABELS[row.payload_type],
      render: (row) => (
        <Text size="xs" style={oneLine}>
          {PAYLOAD_TYPE_LABELS[row.payload_type]}
        </Text>
      ),
    },
    // Who recorded it: the person by name over the device (model and number), one column so the list fits 1440 px.
    // A device's own list names only the person, a person's own list only the device.
    scope === 'tenant' && {
      header: 'Recorded by',
      value: (row) => [row.device_user_name, deviceOf(row)].filter((part) => part !== undefined).join(' · '),
      render: (row) => (
        <div>
          <Clipped width={150} full={row.device_user_name ?? ''}>
            {row.device_user_reference === undefined ? 'No device user' : <DeviceUserLink reference={row.device_user_reference} name={row.device_user_name} />}
          </Clipped>
          <Text size="xs" c="dimmed" truncate="end" maw={150} title={deviceOf(row) ?? ''}>
            <DeviceLink reference={row.device_reference} label={deviceOf(row)} />
          </Text>
        </div>
      ),
    },
    scope === 'device' && {
      header: 'Device user',
      value: (row) => row.device_user_name ?? '',
      render: (row) =>
        row.device_user_reference === undefined ? (
          '—'
        ) : (
          <Clipped width={150} full={row.device_user_name ?? ''}>
            <DeviceUserLink reference={row.device_user_reference} name={row.device_user_name} />
          </Clipped>
        ),
    },
    scope === 'deviceUser' && {
      header: 'Device',
      value: (row) => deviceOf(row) ?? '',
      render: (row) => (
        <Clipped width={150} full={deviceOf(row) ?? ''}>
          <DeviceLink reference={row.device_reference} label={deviceOf(row)} />
        </Clipped>
      ),
    },
    show.parties && {
      header: 'Other parties',
      value: partiesOf,
      render: (row) =>
        partiesOf(row) === '' ? (
          '—'
        ) : (
          <Clipped width={120} full={partiesOf(row)}>
            {partiesOf(row)}
          </Clipped>
        ),
    },
    show.length && {
      header: 'Length',
      value: (row) => row.payload_duration ?? '',
      render: (row) => (
        <Text size="sm" style={oneLine}>
          {formatDuration(row.payload_duration)}
        </Text>
      ),
    },
    {
      header: 'Group',
      value: (row) => row.group ?? '',
      render: (row) =>
        row.group === undefined ? (
          '—'
        ) : (
          <Clipped width={90} full={row.group}>
            {row.group}
          </Clipped>
        ),
    },
    {
      header: 'State',
      value: (row) => PAYLOAD_STATE_LABELS[row.payload_state] + (row.is_late ? ' (late upload)' : '') + (row.held_by === undefined ? '' : ' (held)'),
      render: (row) => (
        <Stack gap={4} align="flex-start">
          <Badge variant="light" color={PAYLOAD_STATE_COLOURS[row.payload_state]} miw="max-content">
            {PAYLOAD_STATE_LABELS[row.payload_state]}
          </Badge>
          {row.is_late && (
            <Badge variant="outline" color="orange" miw="max-content">
              Late upload
            </Badge>
          )}
          <LegalHoldBadge heldBy={row.held_by} />
        </Stack>
      ),
    },
    {
      header: 'Uploaded',
      value: (row) => row.uploaded_at ?? '',
      render: (row) => (
        <Text size="xs" style={oneLine}>
          {formatDateTime(row.uploaded_at)}
        </Text>
      ),
    },
    {
      header: 'Receipt',
      value: (row) => (row.receipt_confirmed_at === undefined ? '' : `${row.receipt_confirmed_at} ${row.receipt_confirmed_by ?? ''}`.trim()),
      render: (row) =>
        row.receipt_confirmed_at === undefined ? (
          '—'
        ) : (
          <div>
            <Text size="xs" style={oneLine}>
              {formatDateTime(row.receipt_confirmed_at)}
            </Text>
            {row.receipt_confirmed_by !== undefined && (
              <Text size="xs" c="dimmed" truncate="end" maw={120} title={`by ${row.receipt_confirmed_by}`}>
                by {row.receipt_confirmed_by}
              </Text>
            )}
          </div>
        ),
    },
    outcomes.size > 0 && {
      header: 'Last action',
      value: (row) => {
        const outcome = outcomes.get(row.payload_reference);
        return outcome === undefined ? '' : outcomeText(outcome);
      },
      render: (row) => {
        const outcome = outcomes.get(row.payload_reference);
        if (outcome === undefined) return '—';
        return (
          <Badge variant="light" color={outcome.ok ? 'green' : 'red'} miw="max-content" data-testid="row-outcome">
            {outcomeText(outcome)}
          </Badge>
        );
      },
    },
  ];
  return columns.filter((column): column is Column<Payload> => column !== false);
}
