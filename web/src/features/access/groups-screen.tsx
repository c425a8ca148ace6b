import { Badge, Group, Modal } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { Group as GroupEntity } from '#shared/contract/entities/groups.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { deleteGroup, useDeleteGroup } from './api/delete-group.ts';
import { useGroups } from './api/list-groups.ts';
import { putGroup } from './api/put-group.ts';
import { ConfirmDelete } from '../../components/forms/confirm-dialog.tsx';
import { errorLinesOf } from '../../components/data/error-lines.tsx';
import { GroupForm } from './group-form.tsx';
import { tagLabel } from './group-form-model.ts';
import { useTagDefinitions } from './api/list-tags.ts';
import { RowActions } from './row-actions.tsx';
import { emptyText, ReferenceFilter, referenceQuery } from './reference-filter.tsx';
import type { ReferenceSearchProps } from './reference-search.ts';

type Editing = { mode: 'create' } | { mode: 'edit'; group: GroupEntity } | undefined;

/**
 * Groups with their tags and counts; create, edit (tags) and delete. `history`: what opens a group's earlier versions
 * on its edit dialog (features/history, composed by the route).
 */
export function GroupsScreen({ search, onSearch, history }: ReferenceSearchProps & { history?: (group: GroupEntity) => ReactNode }) {
  const list = useGroups(referenceQuery(search));
  const tags = useTagDefinitions();
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<GroupEntity | undefined>(undefined);
  const remove = useDeleteGroup();

  const columns: readonly Column<GroupEntity>[] = [
    { header: 'Group', value: (row) => row.group_reference },
    {
      header: 'Tags',
      value: (row) => row.tags.map(tagLabel).join('; '),
      render: (row) =>
        row.tags.length === 0 ? (
          '—'
        ) : (
          <Group gap={4}>
            {row.tags.map((tag) => (
              <Badge key={tag.tag_key} variant="outline" color="gray" tt="none" c="var(--mantine-color-text)">
                {tagLabel(tag)}
              </Badge>
            ))}
          </Group>
        ),
    },
    { header: 'Device users', value: (row) => row.stats?.device_users ?? 0, render: (row) => formatNumber(row.stats?.device_users ?? 0) },
    { header: 'Expected devices', value: (row) => row.stats?.expected_devices ?? 0, render: (row) => formatNumber(row.stats?.expected_devices ?? 0) },
    { header: 'Devices', value: (row) => row.stats?.actual_devices ?? 0, render: (row) => formatNumber(row.stats?.actual_devices ?? 0) },
    { header: 'Last changed', value: (row) => row.updated_at ?? '', render: (row) => formatDateTime(row.updated_at) },
    {
      header: 'Actions',
      value: () => '',
      render: (row) => (
        <RowActions
          subject={`group ${row.group_reference}`}
          editAction={putGroup.action}
          deleteAction={deleteGroup.action}
          onEdit={() => setEditing({ mode: 'edit', group: row })}
          onDelete={() => {
            remove.reset();
            setDeleting(row);
          }}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Groups"
        description="Device users belong to a group; roles grant access by group name and tags."
        actions={
          <PermittedButton action={putGroup.action} onClick={() => setEditing({ mode: 'create' })} disabled={tags.isLoading}>
            Create group
          </PermittedButton>
        }
      />
      <ReferenceFilter label="Group" search={search} onSearch={onSearch} />
      <CursorTable
        label="Groups"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.group_reference}
        {...pagingOf(list)}
        empty={emptyText(search, 'groups', 'No groups yet. Create one to get started.')}
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing?.mode === 'edit' ? `Edit group ${editing.group.group_reference}` : 'Create group'}
        size="lg"
      >
        {editing?.mode === 'edit' && history !== undefined && <Group justify="flex-end">{history(editing.group)}</Group>}
        {editing !== undefined && (
          <GroupForm
            group={editing.mode === 'edit' ? editing.group : undefined}
            definitions={tags.definitions ?? []}
            onDone={(saved) => {
              setEditing(undefined);
              notifySaved(`Group ${saved} saved.`);
            }}
          />
        )}
      </Modal>
      <ConfirmDelete
        linesTitle="The server refused"
        opened={deleting !== undefined}
        title={`Delete group ${deleting?.group_reference ?? ''}?`}
        message="A group can be deleted only when no device user belongs to it. Roles that name it keep their rules."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          if (deleting === undefined) return;
          remove.mutate({ params: { group_reference: deleting.group_reference } }, {
            onSuccess: () => {
              notifySaved(`Group ${deleting.group_reference} deleted.`);
              setDeleting(undefined);
            },
          });
        }}
      />
    </>
  );
}
