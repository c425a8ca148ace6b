import { Group, Modal } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { TagDefinition } from '#shared/contract/entities/groups.ts';
import { CursorTable, pagingOf, type Column } from '../../components/data/cursor-table.tsx';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { PageHeader } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { deleteTag, useDeleteTag } from './api/delete-tag.ts';
import { useTags } from './api/list-tags.ts';
import { putGroup } from './api/put-group.ts';
import { putTag } from './api/put-tag.ts';
import { ConfirmDelete } from '../../components/forms/confirm-dialog.tsx';
import { errorLinesOf } from '../../components/data/error-lines.tsx';
import { isGroupConflict, TagForm } from './tag-form.tsx';
import { allowedValuesText } from './tag-form-model.ts';
import { RowActions } from './row-actions.tsx';
import { emptyText, ReferenceFilter, referenceQuery } from './reference-filter.tsx';
import type { ReferenceSearchProps } from './reference-search.ts';

type Editing = { mode: 'create' } | { mode: 'edit'; definition: TagDefinition } | undefined;

/**
 * Tag definitions: keys, the values groups may give them, required or not; create, edit and delete. `history`: what
 * opens a definition's earlier versions on its edit dialog (features/history, composed by the route).
 */
export function TagsScreen({ search, onSearch, history }: ReferenceSearchProps & { history?: (definition: TagDefinition) => ReactNode }) {
  const list = useTags(referenceQuery(search));
  const [editing, setEditing] = useState<Editing>(undefined);
  const [deleting, setDeleting] = useState<TagDefinition | undefined>(undefined);
  const remove = useDeleteTag();

  const removeTag = (force: boolean) => {
    if (deleting === undefined) return;
    remove.mutate(
      { params: { tag_key: deleting.tag_key }, query: force ? { force_update: 'true' } : {} },
      {
        onSuccess: () => {
          notifySaved(`Tag ${deleting.tag_key} deleted.`);
          setDeleting(undefined);
        },
      },
    );
  };

  const columns: readonly Column<TagDefinition>[] = [
    { header: 'Key', value: (row) => row.tag_key },
    { header: 'Allowed values', value: (row) => allowedValuesText(row) },
    { header: 'Required', value: (row) => (row.is_required ? 'Yes' : 'No') },
    { header: 'Default value', value: (row) => row.default_value ?? '' },
    { header: 'Last changed', value: (row) => row.updated_at ?? '', render: (row) => formatDateTime(row.updated_at) },
    {
      header: 'Actions',
      value: () => '',
      render: (row) => (
        <RowActions
          subject={`tag ${row.tag_key}`}
          editAction={putTag.action}
          deleteAction={deleteTag.action}
          onEdit={() => setEditing({ mode: 'edit', definition: row })}
          onDelete={() => {
            remove.reset();
            setDeleting(row);
          }}
        />
      ),
    },
  ];

  const conflict = isGroupConflict(remove.error);

  return (
    <>
      <PageHeader
        title="Tags"
        description="Tag keys groups may carry, with the values allowed for each."
        actions={
          <PermittedButton action={putTag.action} onClick={() => setEditing({ mode: 'create' })}>
            Create tag
          </PermittedButton>
        }
      />
      <ReferenceFilter label="Tag key" search={search} onSearch={onSearch} />
      <CursorTable
        label="Tags"
        columns={columns}
        rows={list.items}
        rowKey={(row) => row.tag_key}
        {...pagingOf(list)}
        empty={emptyText(search, 'tag keys', 'No tags are defined yet.')}
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing?.mode === 'edit' ? `Edit tag ${editing.definition.tag_key}` : 'Create tag'}
        size="lg"
      >
        {editing?.mode === 'edit' && history !== undefined && <Group justify="flex-end">{history(editing.definition)}</Group>}
        {editing !== undefined && (
          <TagForm
            definition={editing.mode === 'edit' ? editing.definition : undefined}
            onDone={(key) => {
              setEditing(undefined);
              notifySaved(`Tag ${key} saved.`);
            }}
          />
        )}
      </Modal>
      <ConfirmDelete
        linesTitle="The server refused"
        opened={deleting !== undefined}
        title={`Delete tag ${deleting?.tag_key ?? ''}?`}
        message="Groups that carry this tag block the delete; you may then remove it from them as well."
        lines={remove.error ? errorLinesOf(remove.error) : []}
        busy={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => removeTag(false)}
        extra={
          conflict ? (
            <PermittedButton action={[deleteTag.action, putGroup.action]} variant="default" onClick={() => removeTag(true)} loading={remove.isPending}>
              Delete and remove from these groups
            </PermittedButton>
          ) : undefined
        }
      />
    </>
  );
}
