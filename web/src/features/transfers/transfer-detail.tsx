import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { CatchBoundary, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { TRANSFER_FILE_STATES, type Transferable, type TransferFileState } from '#shared/contract/entities/transfers.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf } from '../../components/data/cursor-table.tsx';
import { FactList, type Fact } from '../../components/data/fact-list.tsx';
import { FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';
import { useCan } from '../../lib/use-can.ts';
import { ConfigLink, TransferLink } from './links.tsx';
import { TransferProgressBar, TransferStateBadge } from './transfer-bits.tsx';
import { MOVING_STATES, TRANSFER_TYPE_LABELS } from './transfer-labels.ts';
import { rerunOffer } from './rerun-offer.ts';
import { fileColumns } from './transfer-file-columns.tsx';
import { useRerunTransfer } from './api/rerun-transfer.ts';
import { useTransfer } from './api/get-transfer.ts';
import { useTransferFiles } from './api/list-transfer-files.ts';


/** The window of recordings a transfer covers, in words ("up to …" when it starts from the first). */
function reportWindowOf(transfer: Transferable): string | undefined {
  const { report_from: from, report_to: to } = transfer;
  if (from === undefined && to === undefined) return undefined;
  if (from === undefined) return `Up to ${formatDateTime(to)}`;
  if (to === undefined) return `From ${formatDateTime(from)}`;
  return `${formatDateTime(from)} – ${formatDateTime(to)}`;
}

function TransferFiles({ transfer }: { transfer: Transferable }) {
  const [fileState, setFileState] = useState<TransferFileState | 'All'>('All');
  const files = useTransferFiles(transfer.transfer_id, MOVING_STATES.has(transfer.transfer_state), fileState === 'All' ? undefined : fileState);
  // Polling stops when the transfer stops moving, so the last poll may predate its end: read the files once more then,
  // or they would show as pending on a transfer that has delivered them.
  const { refetch } = files;
  useEffect(() => {
    void refetch();
  }, [transfer.transfer_state, refetch]);
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

/** The page's title: the transfer's id, shortened. */
export const transferTitle = (transferId: string) => `Transfer …${transferId.slice(-8)}`;

/**
 * One transfer: what it is, how far it got, why it failed, every file with both checksums, and running it again.
 *
 * Its route's loader has fetched the transfer (ensureQueryData with the same options) and shows TransferPending
 * meanwhile. A refused fetch (404, 403) shows here, under the page's title, from the page's own boundary (as a
 * recording's page does: a route's errorComponent would be a chunk of its own).
 */
export function TransferDetail({ transferId }: { transferId: string }) {
  return (
    <CatchBoundary getResetKey={() => transferId} errorComponent={({ error }) => <TransferError transferId={transferId} error={error} />}>
      <TransferContent transferId={transferId} />
    </CatchBoundary>
  );
}

/** The transfer could not be fetched (not found, refused): the API's own message under the page's title. */
export function TransferError({ transferId, error }: { transferId: string; error: unknown }) {
  const message = error instanceof Error ? error.message : '';
  return (
    <>
      <PageHeader title={transferTitle(transferId)} />
      <Alert variant="default" title="This transfer could not be loaded">
        {message || 'No such transfer.'}
      </Alert>
    </>
  );
}

function TransferContent({ transferId }: { transferId: string }) {
  const { data: transfer } = useTransfer(transferId);
  const title = transferTitle(transferId);
  const facts: Fact[] = [
    ['State', <TransferStateBadge key="state" state={transfer.transfer_state} />],
    ['Configuration', <ConfigLink key="config" reference={transfer.transfer_config_reference}>{transfer.transfer_config_reference}</ConfigLink>],
    ['Delivers', TRANSFER_TYPE_LABELS[transfer.transfer_type]],
    ['Created', formatDateTime(transfer.created_at)],
    ['Started', transfer.started_at === undefined ? undefined : formatDateTime(transfer.started_at)],
    ['Completed', transfer.completed_at === undefined ? undefined : formatDateTime(transfer.completed_at)],
    ['Recordings', formatNumber(transfer.payload_count)],
    ['Recordings made', reportWindowOf(transfer)],
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
