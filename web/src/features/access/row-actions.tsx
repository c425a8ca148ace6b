import { Group } from '@mantine/core';
import { PermittedButton } from '../../components/access/permitted-button.tsx';

/**
 * The Edit and Delete buttons of a row, named for assistive technology after what they act on ("Edit group x"),
 * each disabled with the reason when the user's roles lack its action.
 */
export function RowActions({
  subject,
  editAction,
  deleteAction,
  onEdit,
  onDelete,
}: {
  subject: string;
  editAction: string;
  deleteAction: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      <PermittedButton action={editAction} size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${subject}`}>
        Edit
      </PermittedButton>
      <PermittedButton action={deleteAction} size="xs" variant="default" onClick={onDelete} aria-label={`Delete ${subject}`}>
        Delete
      </PermittedButton>
    </Group>
  );
}
