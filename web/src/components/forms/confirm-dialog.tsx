import { Button, Group, Modal, Stack, Text, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorLines } from '../data/error-lines.tsx';

/** What a confirmation takes: what the act does, a refusal's lines, and its buttons. */
interface ConfirmProps {
  title: string;
  message: ReactNode;
  /** The `path: message` lines of a refused attempt (none before one). */
  lines: readonly string[];
  /** The heading above those lines; ErrorLines' own when not given. */
  linesTitle?: string;
  busy: boolean;
  /** The act's button, e.g. "Delete". */
  confirmLabel: string;
  /** The act's button colour; red for what destroys, the theme's when undefined. */
  confirmColor?: MantineColor;
  onCancel: () => void;
  onConfirm: () => void;
  extra?: ReactNode;
}

/**
 * A confirmation before an act that cannot be taken back (a delete, an offboarding): what it does, the server's
 * refusal lines if it was refused, Cancel and the act's own button. `extra` may offer a way round a refusal.
 */
export function ConfirmDialog({ opened, ...props }: ConfirmProps & { opened: boolean }) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={props.onCancel} title={props.title}>
      <ConfirmContent {...props} />
    </Modal>
  );
}

/** The dialog's content without its window (the title is the window's). */
export function ConfirmContent(props: Omit<ConfirmProps, 'title'>) {
  return (
    <Stack>
      <Text>{props.message}</Text>
      <ErrorLines title={props.linesTitle} lines={props.lines} />
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        {props.extra}
        <Button color={props.confirmColor} onClick={props.onConfirm} loading={props.busy}>
          {props.confirmLabel}
        </Button>
      </Group>
    </Stack>
  );
}

/** The confirmation before a delete: ConfirmDialog with a red "Delete". */
export function ConfirmDelete(props: Omit<ConfirmProps, 'confirmLabel' | 'confirmColor'> & { opened: boolean }) {
  return <ConfirmDialog {...props} confirmLabel="Delete" confirmColor="red.9" />;
}
