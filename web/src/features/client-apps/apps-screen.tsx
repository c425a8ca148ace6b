import { Badge, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { ClientAppConfiguration } from '#shared/contract/entities/client-apps.ts';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { ConfirmDelete } from '../../components/forms/confirm-dialog.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { errorLinesOf } from '../../lib/form-errors.ts';
import { AppForm } from './app-form.tsx';
import { useDeleteApp } from './api/delete-app.ts';
import { useApps } from './api/list-apps.ts';

type Editing = { mode: 'create' } | { mode: 'edit'; app: ClientAppConfiguration } | undefined;

const badges = (values: readonly string[]) =>
  values.length === 0 ? (
    '—'
  ) : (
    <Group gap={4}>
      {values.map((value) => (
        <Badge miw="max-content" key={value} variant="outline" color="gray" tt="none" c="var(--mantine-color-text)">
          {value}
        </Badge>
      ))}
    </Group>
  );

/**
 * Client apps: machine access to this portal's API with tokens from the app's own identity provider. `history`: what
 * opens an app's earlier versions on its edit dialog (features/history, composed by the route).
 */
export function AppsScreen({ history }: { history?: (app: ClientAppConfiguration) => ReactNode }) {
  const list = useApps();
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<ClientAppConfiguration | undefined>(undefined);
  const remove = useDeleteApp();

  const columns: readonly Column<ClientAppConfiguration>[] = [
    { header: 'App', value: (row) => row.app_reference },
    {
      header: 'Identity provider',
      value: (row) => `${row.oidc_config.issuer} (${row.oidc_config.audience})`,
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm">{row.oidc_config.issuer}</Text>
          <Text size="xs" c="dimmed">
            Audience {row.oidc_config.audience} · keys {row.oidc_config.jwks_uri}
          </Text>
        </Stack>
      ),
    },
    { header: 'Group', value: (row) => row.group ?? '' },
    { header: 'Roles', value: (row) => row.roles.join('; '), render: (row) => badges(row.roles) },
    { header: 'CIDR ranges', value: (row) => row.cidr_ranges.join('; '), render: (row) => (row.cidr_ranges.length === 0 ? 'Any address' : badges(row.cidr_ranges)) },
    { header: 'Last changed', value: (row) => row.updated_at ?? '', render: (row) => formatDateTime(row.updated_at) },
    {
      header: 'Actions',
      value: () => '',
      render: (row) => (
        <Group gap="xs" wrap="nowrap">
          <PermittedButton action="apps:Update" size="xs" variant="default" onClick={() => setEditing({ mode: 'edit', app: row })} aria-label={`Edit app ${row.app_reference}`}>
            Edit
          </PermittedButton>
          <PermittedButton
            action="apps:Delete"
            size="xs"
            variant="default"
            onClick={() => {
              remove.reset();
              setDeleting(row);
            }}
            aria-label={`Delete app ${row.app_reference}`}
          >
            Delete
          </PermittedButton>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Client apps"
        description="Programs that call this portal's API on their own, with tokens from their own identity provider. Each acts with its group and roles, only from its CIDR ranges."
        actions={
          <PermittedButton action="apps:Create" onClick={() => setEditing({ mode: 'create' })}>
            Register app
          </PermittedButton>
        }
      />
      <CursorTable label="Client apps" columns={columns} rows={list.items} rowKey={(row) => row.app_reference} {...pagingOf(list)} empty="No client apps yet." />
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing?.mode === 'edit' ? `Edit app ${editing.app.app_reference}` : 'Register a client app'}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing?.mode === 'edit' && history !== undefined && <Group justify="flex-end">{history(editing.app)}</Group>}
        {editing && <AppForm app={editing.mode === 'edit' ? editing.app : undefined} onDone={() => setEditing(undefined)} />}
      </Modal>
      <ConfirmDelete
        opened={deleting !== undefined}
        title={`Delete app ${deleting?.app_reference ?? ''}`}
        message="Its tokens stop working at once. This cannot be undone."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() =>
          deleting &&
          remove.mutate(
            { params: { app_reference: deleting.app_reference } },
            {
              onSuccess: () => {
                notifySaved(`Client app ${deleting.app_reference} deleted.`);
                setDeleting(undefined);
              },
            },
          )
        }
      />
    </>
  );
}
