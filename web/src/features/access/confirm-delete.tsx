import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorLines } from '../../components/data/error-lines.tsx';

/** A confirmation before a delete; the server's refusal lines show inside, and `extra` may offer a way round it. */
export function ConfirmDelete(props: {
  opened: boolean;
  title: string;
  message: ReactNode;
  lines: readonly string[];
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  extra?: ReactNode;
}) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={props.opened} onClose={props.onCancel} title={props.title}>
      <Stack>
        <Text>{props.message}</Text>
        <ErrorLines title="The server refused" lines={props.lines} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          {props.extra}
          <Button color="red.9" onClick={props.onConfirm} loading={props.busy}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
