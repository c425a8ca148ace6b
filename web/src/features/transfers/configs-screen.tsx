import { Anchor, Badge, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { TransferConfig } from '#shared/contract/entities/transfers.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { ConfirmDelete } from '../../components/forms/confirm-dialog.tsx';
import { FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';
import { PAYLOAD_TYPE_LABELS } from '../../lib/labels.ts';
import { useCan } from '../../lib/use-can.ts';
import { useConfigs } from './api/list-configs.ts';
import { useDeleteConfig } from './api/delete-config.ts';
import { useRunConfig } from './api/run-config.ts';
import { ConfigFacts, targetOf } from './config-facts.tsx';
import { ConfigForm } from './config-form.tsx';
import { previewSchedule, scheduleInWords } from './schedule-words.ts';
import { FILE_FORMAT_LABELS, TRANSFER_TYPE_LABELS } from './transfer-labels.ts';

type Open = { mode: 'create' } | { mode: 'edit'; config: TransferConfig } | { mode: 'view'; config: TransferConfig } | undefined;

/** When a saved configuration runs next: its schedule from now (a rate counted from when it was saved). */
export function nextRunOf(config: TransferConfig, now: Date): string {
  if (!config.is_active) return 'Not while inactive';
  if (config.schedule === '') return 'On demand';
  const preview = previewSchedule(config.schedule, now, config.updated_at === undefined ? undefined : new Date(config.updated_at), 1);
  const next = preview.runs[0];
  return next === undefined ? 'None to come' : formatDateTime(next);
}

/**
 * Transfer configurations: where and how recordings are delivered, on a schedule or on demand. Rows offer only what
 * the user's roles allow (run, edit, delete); everyone who may read them can open one to see it whole.
 */
export function ConfigsScreen({
  opened,
  onOpened,
  history,
}: {
  opened?: string;
  onOpened: (reference: string | undefined) => void;
  /** What opens a configuration's earlier versions on its dialog (features/history, composed by the route). */
  history?: (config: TransferConfig) => ReactNode;
}) {
  const list = useConfigs();
  const [open, setOpen] = useState<Open>(undefined);
  const [deleting, setDeleting] = useState<TransferConfig | undefined>(undefined);
  const remove = useDeleteConfig();
  const run = useRunConfig();
  const navigate = useNavigate();
  const canRun = useCan('transfers:Run').allowed;
  const canUpdate = useCan('transferConfigs:Update').allowed;
  const canDelete = useCan('transferConfigs:Delete').allowed;
  const now = new Date();

  // A link from a transfer names its configuration: shown open once the list has it.
  const linked = opened === undefined ? undefined : list.items.find((config) => config.transfer_config_reference === opened);
  const shown: Open = open ?? (linked === undefined ? undefined : { mode: 'view', config: linked });
  const close = () => {
    setOpen(undefined);
    if (opened !== undefined) onOpened(undefined);
  };

  const runNow = (config: TransferConfig) =>
    run.mutate(
      { params: { transfer_config_reference: config.transfer_config_reference } },
      {
        onSuccess: (started) =>
          notifications.show({
            color: 'green',
            autoClose: 8000,
            closeButtonProps: { 'aria-label': 'Close notification' },
            message: (
              <Text size="sm">
                Transfer of {config.transfer_config_reference} started ({started.transfer_state}).{' '}
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => void navigate({ to: '/dashboard/account/transfers/$transferId', params: { transferId: started.transfer_id } })}
                >
                  Follow it
                </Anchor>
              </Text>
            ),
          }),
      },
    );

  const actionColumn: Column<TransferConfig> = {
    header: 'Actions',
    exportable: false,
    value: () => '',
    render: (row) => (
      <Group gap="xs" wrap="nowrap">
        {canRun &&
          (row.is_active ? (
            <PermittedButton
              action="transfers:Run"
              size="xs"
              onClick={() => runNow(row)}
              loading={run.isPending && run.variables?.params.transfer_config_reference === row.transfer_config_reference}
              aria-label={`Run ${row.transfer_config_reference} now`}
            >
              Run now
            </PermittedButton>
          ) : (
            <Tooltip label="Inactive configurations do not run: edit it and switch Active on first">
              <Button size="xs" data-disabled aria-disabled onClick={(event) => event.preventDefault()} aria-label={`Run ${row.transfer_config_reference} now (inactive)`}>
                Run now
              </Button>
            </Tooltip>
          ))}
        {canUpdate && (
          <PermittedButton action="transferConfigs:Update" size="xs" variant="default" onClick={() => setOpen({ mode: 'edit', config: row })} aria-label={`Edit ${row.transfer_config_reference}`}>
            Edit
          </PermittedButton>
        )}
        {canDelete && (
          <PermittedButton
            action="transferConfigs:Delete"
            size="xs"
            variant="default"
            onClick={() => {
              remove.reset();
              setDeleting(row);
            }}
            aria-label={`Delete ${row.transfer_config_reference}`}
          >
            Delete
          </PermittedButton>
        )}
      </Group>
    ),
  };

  const columns: readonly Column<TransferConfig>[] = [
    {
      header: 'Configuration',
      value: (row) => `${row.transfer_config_reference}${row.is_active ? '' : ' (inactive)'}`,
      render: (row) => (
        <Stack gap={0} miw={140}>
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="left"
            onClick={() => setOpen({ mode: 'view', config: row })}
            aria-label={`View configuration ${row.transfer_config_reference}`}
          >
            {row.transfer_config_reference}
          </Anchor>
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {TRANSFER_TYPE_LABELS[row.transfer_type]}
            </Text>
            {!row.is_active && (
              <Badge size="xs" variant="light" color="gray" tt="none">
                Inactive
              </Badge>
            )}
          </Group>
        </Stack>
      ),
    },
    {
      header: 'Target',
      value: (row) => targetOf(row),
      render: (row) => (
        <Stack gap={0} miw={200}>
          <Text size="sm">{row.target_type}</Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {targetOf(row)}
          </Text>
        </Stack>
      ),
    },
    {
      header: 'Payload types',
      value: (row) => row.payload_types.join('; '),
      render: (row) => (
        <Group gap={4}>
          {row.payload_types.map((type) => (
            <Badge key={type} variant="outline" color="gray" tt="none" c="var(--mantine-color-text)" miw="max-content">
              {PAYLOAD_TYPE_LABELS[type]}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      header: 'Format',
      value: (row) => `${FILE_FORMAT_LABELS[row.transfer_file_format]}${row.pgp_key === undefined ? '' : ' + PGP'}`,
    },
    {
      header: 'Schedule',
      value: (row) => row.schedule,
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm">{scheduleInWords(row.schedule)}</Text>
          {row.schedule !== '' && (
            <Text size="xs" c="dimmed" ff="monospace">
              {row.schedule}
            </Text>
          )}
        </Stack>
      ),
    },
    { header: 'Next run', value: (row) => nextRunOf(row, now), render: (row) => <Text size="sm" miw={110}>{nextRunOf(row, now)}</Text> },
    // A role that may neither run, edit nor delete gets no empty Actions column.
    ...(canRun || canUpdate || canDelete ? [actionColumn] : []),
  ];

  return (
    <>
      <PageHeader
        title="Transfer configuration"
        description="Where and how recordings are delivered to your own storage: the target, what is sent, how it is packed and encrypted, and when it runs. Schedules run in UTC."
        actions={
          <>
            <Button variant="default" renderRoot={(props) => <Link {...props} to="/dashboard/account/transfers" />}>
              Transfers
            </Button>
            <PermittedButton action="transferConfigs:Create" onClick={() => setOpen({ mode: 'create' })}>
              New configuration
            </PermittedButton>
          </>
        }
      />
      {!canRun && !canUpdate && !canDelete && (
        <Text size="sm" c="dimmed" mb="sm">
          Your roles let you read these configurations; changing or running them needs another role.
        </Text>
      )}
      <FormErrorSummary lines={run.error ? errorLinesOf(run.error) : []} />
      <CursorTable
        label="Transfer configurations"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.transfer_config_reference}
        {...pagingOf(list)}
        empty="No transfer configurations yet. Create one to deliver recordings to your SFTP server or S3 bucket."
      />
      <Modal
        opened={shown !== undefined}
        onClose={close}
        title={shown?.mode === 'create' ? 'New transfer configuration' : shown?.mode === 'edit' ? `Edit ${shown.config.transfer_config_reference}` : `Configuration ${shown?.config.transfer_config_reference ?? ''}`}
        size="xl"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {shown !== undefined && shown.mode !== 'create' && history !== undefined && <Group justify="flex-end">{history(shown.config)}</Group>}
        {shown?.mode === 'view' ? (
          <ConfigFacts
            config={shown.config}
            onEdit={canUpdate ? () => setOpen({ mode: 'edit', config: shown.config }) : undefined}
          />
        ) : (
          shown && <ConfigForm config={shown.mode === 'edit' ? shown.config : undefined} onDone={close} />
        )}
      </Modal>
      <ConfirmDelete
        opened={deleting !== undefined}
        title={`Delete ${deleting?.transfer_config_reference ?? ''}`}
        message="Its schedule stops and it can no longer be run. Transfers it already made stay listed, with their files and checksums."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { params: { transfer_config_reference: deleting.transfer_config_reference } },
            {
              onSuccess: () => {
                notifySaved(`Transfer configuration ${deleting.transfer_config_reference} deleted.`);
                setDeleting(undefined);
              },
            },
          )
        }
      />
    </>
  );
}
