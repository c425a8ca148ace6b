import { Button, Group } from '@mantine/core';

/** The Edit and Delete buttons of a row, named for assistive technology after what they act on ("Edit group x"). */
export function RowActions({ subject, onEdit, onDelete }: { subject: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${subject}`}>
        Edit
      </Button>
      <Button size="xs" variant="default" onClick={onDelete} aria-label={`Delete ${subject}`}>
        Delete
      </Button>
    </Group>
  );
}
