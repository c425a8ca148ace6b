import { Badge, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { TransferFileState, TransferItem } from '#shared/contract/entities/transfers.ts';
import type { Column } from '../../components/data/cursor-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { CHECKSUM_VERDICT_LABELS, checksumsOf, checksumVerdict, type ChecksumVerdict } from './checksums.ts';
import { formatBytes } from '../../lib/format.ts';
import { ERROR_TEXT } from '../../app/theme.ts';

const FILE_STATE_COLOURS: Record<TransferFileState, string> = { Pending: 'gray', Delivered: 'green', Failed: 'red' };
const FILE_KIND_LABELS: Record<TransferItem['file_kind'], string> = { Recording: 'Recording', Report: 'Report', Manifest: 'Manifest' };
const VERDICT_COLOURS: Record<ChecksumVerdict, string> = { match: 'green', mismatch: 'red', packed: 'gray', written: 'gray', waiting: 'gray' };
const VERDICT_MARKS: Record<ChecksumVerdict, string> = { match: '✓', mismatch: '✗', packed: '≠', written: '·', waiting: '…' };

/** A SHA-256 shortened to its first and last characters, the whole of it on hover and for screen readers. */
function Hash({ value, label }: { value: string | undefined; label: string }) {
  if (value === undefined) return <Text size="xs" c="dimmed">—</Text>;
  return (
    <Tooltip label={value} multiline maw={360}>
      <Code aria-label={`${label} ${value}`} tabIndex={0}>
        {value.slice(0, 10)}…{value.slice(-6)}
      </Code>
    </Tooltip>
  );
}

/** A transfer's files: where each came from and went, its size, both SHA-256 side by side with their verdict, attempts and state. */
export const fileColumns: readonly Column<TransferItem>[] = [
  { header: 'File', value: (row) => FILE_KIND_LABELS[row.file_kind] },
  {
    header: 'Source',
    value: (row) => row.payload_reference ?? row.source_path,
    render: (row) => (
      <Stack gap={0}>
        {row.payload_reference !== undefined && <Text size="sm">{row.payload_reference}</Text>}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {row.source_path}
        </Text>
      </Stack>
    ),
  },
  {
    header: 'Destination path',
    value: (row) => row.dest_path,
    render: (row) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {row.dest_path === '' ? '—' : row.dest_path}
      </Text>
    ),
  },
  { header: 'Size', value: (row) => row.size ?? '', render: (row) => formatBytes(row.size) },
  {
    header: 'SHA-256 delivered / device',
    value: (row) => `${checksumsOf(row).delivered ?? ''} / ${checksumsOf(row).device ?? ''}`,
    render: (row) => {
      const sums = checksumsOf(row);
      const verdict = checksumVerdict(row);
      return (
        <Stack gap={2}>
          <Group gap={4} wrap="nowrap">
            <Text size="xs" w={48}>
              Delivered
            </Text>
            <Hash value={sums.delivered} label="Delivered SHA-256" />
          </Group>
          <Group gap={4} wrap="nowrap">
            <Text size="xs" w={48}>
              Device
            </Text>
            <Hash value={sums.device} label="Device SHA-256" />
          </Group>
          <Badge size="sm" variant="light" color={VERDICT_COLOURS[verdict]} tt="none" miw="max-content" data-verdict={verdict}>
            <span aria-hidden>{VERDICT_MARKS[verdict]} </span>
            {CHECKSUM_VERDICT_LABELS[verdict]}
          </Badge>
        </Stack>
      );
    },
  },
  { header: 'Attempts', value: (row) => row.attempts },
  {
    header: 'State',
    value: (row) => `${row.file_state}${row.last_error === undefined ? '' : `: ${row.last_error}`}`,
    render: (row) => (
      <Stack gap={2}>
        <Badge variant="light" color={FILE_STATE_COLOURS[row.file_state]} tt="none" miw="max-content">
          {row.file_state}
        </Badge>
        {row.delivered_at !== undefined && <Text size="xs">{formatDateTime(row.delivered_at)}</Text>}
        {row.last_error !== undefined && (
          <Text size="xs" c={ERROR_TEXT} style={{ overflowWrap: 'anywhere' }}>
            {row.last_error}
          </Text>
        )}
      </Stack>
    ),
  },
];
