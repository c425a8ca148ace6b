import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { CompletenessEntry } from '#shared/contract/entities/completeness.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { formatDate, formatDateTime, formatDuration } from '../../lib/format.ts';
import { COMPLETENESS_OUTCOME_LABELS, DIRECTION_LABELS, labelOf, PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { useCompletenessEntries, type CompletenessEntriesQuery } from './api/list-entries.ts';
import { ENTRY_COLUMNS, fileNameOf, partyOf } from './completeness-model.ts';
import { DownloadEntriesButton, EntryRecordingLink, OutcomeBadge } from './completeness-parts.tsx';

const column = (header: string) => ENTRY_COLUMNS.find((entry) => entry.header === header) as Column<CompletenessEntry>;
const oneLine = { whiteSpace: 'nowrap' } as const;

/** The entries table: the entry's time, what and with whom, its outcome as a badge, its recording, person and device. */
export const ENTRY_TABLE_COLUMNS: readonly Column<CompletenessEntry>[] = [
  {
    ...column('Time'),
    render: (entry) => (
      <Text size="xs" style={oneLine}>
        {formatDateTime(entry.start_time)}
      </Text>
    ),
  },
  { ...column('Type'), render: (entry) => labelOf(PAYLOAD_TYPE_LABELS, entry.payload_type) },
  { ...column('Direction'), render: (entry) => (entry.direction === undefined ? '—' : DIRECTION_LABELS[entry.direction]) },
  { ...column('Number'), render: (entry) => <Text size="sm" style={oneLine}>{partyOf(entry)}</Text> },
  { ...column('Call length'), render: (entry) => (entry.duration === undefined ? '—' : formatDuration(entry.duration)) },
  { ...column('Outcome'), render: (entry) => <OutcomeBadge outcome={entry.outcome} /> },
  {
    ...column('Recording length'),
    render: (entry) =>
      entry.recording_duration === undefined ? '—' : `${formatDuration(entry.recording_duration)}${entry.is_intermittent === true ? ' (intermittent)' : ''}`,
  },
  { header: 'Recording', value: (entry) => entry.payload_reference ?? '', render: (entry) => <EntryRecordingLink entry={entry} /> },
  {
    ...column('Person'),
    render: (entry) =>
      entry.device_user_reference === undefined ? (
        '—'
      ) : (
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/devices/users/$deviceUserReference" params={{ deviceUserReference: entry.device_user_reference ?? '' }} />}>
          {entry.device_user_name ?? entry.device_user_reference}
        </Anchor>
      ),
  },
  {
    ...column('Device'),
    render: (entry) => (
      <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/devices/$deviceReference" params={{ deviceReference: entry.device_reference }} />}>
        {entry.device_model ?? entry.device_reference}
      </Anchor>
    ),
  },
];

/** "Missing entries of Alice Archer on 12 Nov 2026": what the drill-down lists, in words. */
export function drillTitle(query: CompletenessEntriesQuery, names: { person?: string | undefined; device?: string | undefined }): string {
  const what = query.outcome === undefined ? 'Entries' : `${labelOf(COMPLETENESS_OUTCOME_LABELS, query.outcome)} entries`;
  const type = query.payload_type === undefined ? '' : ` (${labelOf(PAYLOAD_TYPE_LABELS, query.payload_type)})`;
  const who =
    query.device_user_reference !== undefined
      ? ` of ${names.person ?? query.device_user_reference}`
      : query.device_reference !== undefined
        ? ` of ${names.device ?? query.device_reference}`
        : query.group !== undefined
          ? ` in group ${query.group}`
          : '';
  const when = query.from !== undefined && query.from === query.to ? ` on ${formatDate(query.from)}` : query.from !== undefined && query.to !== undefined ? ` from ${formatDate(query.from)} to ${formatDate(query.to)}` : '';
  return `${what}${type}${who}${when}`;
}

/**
 * The entries behind a count, page by page, newest first: the table's "Export CSV" writes the rows shown, the
 * ledger download every entry of the filters.
 */
export function EntriesSection({ query, onClose }: { query: CompletenessEntriesQuery; onClose: () => void }) {
  const list = useCompletenessEntries(query);
  // Named as the entries name their person and device (the URL holds only references).
  const first = list.items[0];
  const title = drillTitle(query, { person: first?.device_user_name, device: first?.device_model });
  return (
    <Paper component="section" withBorder p="md" aria-labelledby="completeness-entries" id="completeness-entries-section">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Title order={2} size="h4" id="completeness-entries">
            {title}
          </Title>
          <Group gap="xs">
            <DownloadEntriesButton query={query} fileName={fileNameOf(title)}>
              Download all (CSV)
            </DownloadEntriesButton>
            <Button variant="subtle" size="xs" onClick={onClose}>
              Close entries
            </Button>
          </Group>
        </Group>
        <CursorTable
          label={title}
          columns={ENTRY_TABLE_COLUMNS}
          rows={list.items}
          rowKey={(entry) => entry.entry_reference}
          {...pagingOf(list)}
          empty="No entries match: a count moves as recordings arrive, so it may have changed since the report was read."
        />
      </Stack>
    </Paper>
  );
}
