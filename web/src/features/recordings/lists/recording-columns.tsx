import { Badge, Checkbox, Group, Text } from '@mantine/core';
import type { Payload } from '#shared/contract/entities/payloads.ts';
import type { Column } from '../../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatDuration, PAYLOAD_STATE_COLOURS, PAYLOAD_STATE_LABELS, PAYLOAD_TYPE_LABELS } from '../shared/labels.ts';
import type { RecordingKind } from '../shared/kinds.ts';
import { DeviceLink, DeviceUserLink, RecordingLink } from './links.tsx';
import { outcomeText, type RowOutcome } from './row-outcome.ts';
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
          aria-label={`Select ${PAYLOAD_TYPE_LABELS[row.payload_type].toLowerCase()} ${row.payload_reference}`}
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
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          <RecordingLink type={row.payload_type} reference={row.payload_reference}>
            {formatDateTime(row.payload_time)}
          </RecordingLink>
        </Text>
      ),
    },
    show.type && { header: 'Type', value: (row) => PAYLOAD_TYPE_LABELS[row.payload_type] },
    show.parties && { header: 'Other parties', value: partiesOf, render: (row) => partiesOf(row) || '—' },
    show.length && { header: 'Length', value: (row) => row.payload_duration ?? '', render: (row) => formatDuration(row.payload_duration) },
    scope !== 'device' && {
      header: 'Device',
      value: (row) => row.device_reference,
      render: (row) => (
        <Text size="xs" ff="monospace">
          <DeviceLink reference={row.device_reference} />
        </Text>
      ),
    },
    scope !== 'deviceUser' && {
      header: 'Device user',
      value: (row) => row.device_user_reference ?? '',
      render: (row) =>
        row.device_user_reference === undefined ? (
          '—'
        ) : (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            <DeviceUserLink reference={row.device_user_reference} />
          </Text>
        ),
    },
    { header: 'Group', value: (row) => row.group ?? '' },
    {
      header: 'State',
      value: (row) => PAYLOAD_STATE_LABELS[row.payload_state] + (row.is_late ? ' (late upload)' : ''),
      render: (row) => (
        <Group gap={4} wrap="nowrap">
          <Badge variant="light" color={PAYLOAD_STATE_COLOURS[row.payload_state]} miw="max-content">
            {PAYLOAD_STATE_LABELS[row.payload_state]}
          </Badge>
          {row.is_late && (
            <Badge variant="outline" color="orange" miw="max-content">
              Late upload
            </Badge>
          )}
        </Group>
      ),
    },
    { header: 'Uploaded', value: (row) => row.uploaded_at ?? '', render: (row) => formatDateTime(row.uploaded_at) },
    {
      header: 'Receipt confirmed',
      value: (row) => (row.receipt_confirmed_at === undefined ? '' : `${row.receipt_confirmed_at} ${row.receipt_confirmed_by ?? ''}`.trim()),
      render: (row) =>
        row.receipt_confirmed_at === undefined ? (
          '—'
        ) : (
          <Text size="sm">
            {formatDateTime(row.receipt_confirmed_at)}
            {row.receipt_confirmed_by !== undefined && (
              <Text span size="xs" c="dimmed" display="block">
                by {row.receipt_confirmed_by}
              </Text>
            )}
          </Text>
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
