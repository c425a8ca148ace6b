import { Button, Loader, Modal, type ButtonProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { VersionedEntity } from '#shared/contract/entities/record-versions.ts';
import { useCan } from '../../lib/use-can.ts';
import { listHistory } from './api/list-history.ts';

// The panel (diff, tables) arrives only when someone opens a history.
const HistoryPanel = lazy(() => import('./history-panel.tsx'));

export interface RecordHistoryProps {
  entity: VersionedEntity;
  /** The record's reference as the history endpoint names it (a comment: `<payload_reference>~<comment_id>`). */
  reference: string;
  /**
   * The action that reads the record on its own screen (its read endpoint's `action`, e.g. `getRole.action`): the
   * server answers a history only to whom may read the record too, so no button is offered to anyone else.
   */
  readAction: string;
  /** The record as the screen shows it now (its API answer), compared with the newest version. */
  current?: Readonly<Record<string, unknown>> | undefined;
  /** What the record is called in the dialog's title and the button's name ("comment 2", "role auditors"). */
  name: string;
  size?: ButtonProps['size'];
}

/**
 * "History" on a screen that edits a versioned record: opens the record's versions side by side (history-panel.tsx).
 * Shown only when the user's roles allow both the history read and the record's own read; otherwise nothing, since
 * the server would refuse it. One line on a screen: `<RecordHistory entity="role" reference={…} readAction={…} name={…} />`.
 */
export function RecordHistory({ entity, reference, readAction, current, name, size = 'sm' }: RecordHistoryProps) {
  const can = useCan([listHistory.action, readAction]);
  const [opened, setOpened] = useState(false);
  if (!can.allowed) return null;
  return (
    <>
      <Button size={size} variant="default" onClick={() => setOpened(true)} aria-label={`History of ${name}`} data-requires-action={listHistory.action}>
        History
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={`History of ${name}`} size="80rem" closeButtonProps={{ 'aria-label': 'Close' }}>
        {opened && (
          <Suspense fallback={<Loader size="sm" aria-label="Loading the history" />}>
            <HistoryPanel entity={entity} reference={reference} current={current} />
          </Suspense>
        )}
      </Modal>
    </>
  );
}
