import { Alert, Badge, Button, Code, Group, Loader, Paper, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { TRANSFER_FILE_STATES, type Transferable, type TransferFileState, type TransferItem } from '#shared/contract/entities/transfers.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { FactList, type Fact } from '../../components/data/fact-list.tsx';
import { FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';
import { useCan } from '../../lib/use-can.ts';
import { CHECKSUM_VERDICT_LABELS, checksumsOf, checksumVerdict, type ChecksumVerdict } from './checksums.ts';
import { ConfigLink, TransferLink } from './links.tsx';
import { TransferProgressBar, TransferStateBadge } from './transfer-bits.tsx';
import { MOVING_STATES, TRANSFER_TYPE_LABELS } from './transfer-labels.ts';
import { formatBytes } from './transfer-progress.ts';
import { useRerunTransfer, useTransfer, useTransferFiles } from './transfers-api.ts';

/** A Pending or InProgress transfer with no word from its job for this long is offered to resume (its job stopped). */
const STOPPED_AFTER_MS = 15 * 60_000;

const FILE_STATE_COLOURS: Record<TransferFileState, string> = { Pending: 'gray', Delivered: 'green', Failed: 'red' };
const FILE_KIND_LABELS: Record<TransferItem['file_kind'], string> = { Recording: 'Recording', Report: 'Report', Manifest: 'Manifest' };
const VERDICT_COLOURS: Record<ChecksumVerdict, string> = { match: 'green', mismatch: 'red', packed: 'gray', waiting: 'gray' };
const VERDICT_MARKS: Record<ChecksumVerdict, string> = { match: '✓', mismatch: '✗', packed: '≠', waiting: '…' };

/** What running this transfer again would do, or undefined when its state does not allow it now. */
export function rerunOffer(transfer: Transferable, now: Date): { label: string; explain: string } | undefined {
  if (transfer.transfer_state === 'PartialFail' || transfer.transfer_state === 'Failed') {
    return { label: 'Run again', explain: 'A new transfer of the recordings this one did not deliver; this one stays as it is.' };
  }
  if (MOVING_STATES.has(transfer.transfer_state)) {
    const last = Date.parse(transfer.progress_at ?? transfer.started_at ?? transfer.created_at);
    if (now.getTime() - last > STOPPED_AFTER_MS) return { label: 'Resume', explain: 'Its job has gone quiet: start it again from where it stopped.' };
  }
  return undefined;
}

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

const fileColumns: readonly Column<TransferItem>[] = [
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
  { header: 'Destination path', value: (row) => row.dest_path, render: (row) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{row.dest_path}</Text> },
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
          <Text size="xs" c="red.8" style={{ overflowWrap: 'anywhere' }}>
            {row.last_error}
          </Text>
        )}
      </Stack>
    ),
  },
];

function TransferFiles({ transfer }: { transfer: Transferable }) {
  const [fileState, setFileState] = useState<TransferFileState | 'All'>('All');
  const files = useTransferFiles(transfer.transfer_id, MOVING_STATES.has(transfer.transfer_state), fileState === 'All' ? undefined : fileState);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Files
        </Title>
        <SegmentedControl
          aria-label="Show files"
          value={fileState}
          onChange={(value) => setFileState(value as TransferFileState | 'All')}
          data={['All', ...TRANSFER_FILE_STATES]}
          size="xs"
        />
      </Group>
      <CursorTable
        label="Transfer files"
        columns={fileColumns}
        rows={files.items}
        rowKey={(row) => `${row.dest_path}|${row.source_path}`}
        {...pagingOf(files)}
        empty={MOVING_STATES.has(transfer.transfer_state) ? 'No files chosen yet: they appear as the job picks them.' : 'No files in this transfer.'}
      />
    </Paper>
  );
}

function RerunButton({ transfer }: { transfer: Transferable }) {
  const canRun = useCan('transfers:Run').allowed;
  const rerun = useRerunTransfer();
  const navigate = useNavigate();
  const offer = rerunOffer(transfer, new Date());
  if (!canRun || offer === undefined) return null;
  return (
    <Stack gap={4} align="flex-end">
      <Tooltip label={offer.explain} multiline maw={320}>
        <PermittedButton
          action="transfers:Run"
          loading={rerun.isPending}
          onClick={() =>
            rerun.mutate(
              { params: { transfer_id: transfer.transfer_id } },
              {
                onSuccess: (started) => {
                  notifySaved(started.transfer_id === transfer.transfer_id ? 'Transfer resumed.' : 'Transfer started again as a new transfer.');
                  if (started.transfer_id !== transfer.transfer_id) {
                    void navigate({ to: '/dashboard/account/transfers/$transferId', params: { transferId: started.transfer_id } });
                  }
                },
              },
            )
          }
        >
          {offer.label}
        </PermittedButton>
      </Tooltip>
      <FormErrorSummary lines={rerun.error ? errorLinesOf(rerun.error) : []} />
    </Stack>
  );
}

/** One transfer: what it is, how far it got, why it failed, every file with both checksums, and running it again. */
export function TransferDetail({ transferId }: { transferId: string }) {
  const query = useTransfer(transferId);
  const title = `Transfer …${transferId.slice(-8)}`;
  if (query.isLoading) {
    return (
      <>
        <PageHeader title={title} />
        <Group justify="center" py="xl">
          <Loader aria-label="Loading the transfer" />
        </Group>
      </>
    );
  }
  const transfer = query.data;
  if (transfer === undefined) {
    return (
      <>
        <PageHeader title={title} />
        <Alert variant="default" title="This transfer could not be loaded">
          {query.error?.message ?? 'No such transfer.'}
        </Alert>
      </>
    );
  }
  const facts: Fact[] = [
    ['State', <TransferStateBadge key="state" state={transfer.transfer_state} />],
    ['Configuration', <ConfigLink key="config" reference={transfer.transfer_config_reference}>{transfer.transfer_config_reference}</ConfigLink>],
    ['Delivers', TRANSFER_TYPE_LABELS[transfer.transfer_type]],
    ['Created', formatDateTime(transfer.created_at)],
    ['Started', transfer.started_at === undefined ? undefined : formatDateTime(transfer.started_at)],
    ['Completed', transfer.completed_at === undefined ? undefined : formatDateTime(transfer.completed_at)],
    ['Recordings', formatNumber(transfer.payload_count)],
    ['Recorded between', transfer.report_from === undefined && transfer.report_to === undefined ? undefined : `${formatDateTime(transfer.report_from)} – ${formatDateTime(transfer.report_to)}`],
    ...(transfer.rerun_of === undefined
      ? []
      : ([['Runs again', <TransferLink key="rerun" transferId={transfer.rerun_of}>transfer …{transfer.rerun_of.slice(-8)}</TransferLink>]] as Fact[])),
  ];
  return (
    <>
      <PageHeader title={title} description={<Text span ff="monospace" size="sm">{transfer.transfer_id}</Text>} actions={<RerunButton transfer={transfer} />} />
      <Stack>
        {transfer.error_message !== undefined && (
          <Alert variant="default" title="Why it failed" role="alert" styles={{ root: { borderColor: 'var(--mantine-color-red-filled)', borderWidth: 2 } }}>
            {transfer.error_message}
          </Alert>
        )}
        <Paper withBorder p="md">
          <FactList facts={facts} />
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Progress
          </Title>
          <TransferProgressBar transfer={transfer} label="Progress of this transfer" />
          {MOVING_STATES.has(transfer.transfer_state) && (
            <Text size="xs" c="dimmed" mt={4}>
              Refreshed every few seconds{transfer.progress_at === undefined ? '' : `; last word from the job ${formatDateTime(transfer.progress_at)}`}.
            </Text>
          )}
        </Paper>
        <TransferFiles transfer={transfer} />
        <Group>
          <Button variant="default" renderRoot={(props) => <Link {...props} to="/dashboard/account/transfers" />}>
            All transfers
          </Button>
        </Group>
      </Stack>
    </>
  );
}
