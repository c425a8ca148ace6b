import { Alert, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { BulkResult } from '#shared/contract/entities/alerts.ts';
import { PermittedButton } from '../../../components/access/permitted-button.tsx';
import { BULK_SELECTION_LIMIT, type Selection } from '../../../lib/use-selection.ts';
import { useBulkUpdateSupervisionItems } from '../api/bulk-update-items.ts';
import { CloseForm, type CloseRequest } from '../item/close-form.tsx';

/** What the last bulk action did to one row, as the row shows it. */
export interface BulkOutcome {
  ok: boolean;
  text: string;
}

/** Each reference's answer in words: done, or the server's reason it was refused. */
export function bulkOutcomes(result: BulkResult, done: string): Map<string, BulkOutcome> {
  return new Map(result.data.map((row) => [row.reference, { ok: row.ok, text: row.ok ? done : (row.message ?? 'Refused') }]));
}

/**
 * The bulk bar over the queue: select up to 100 items, then claim them, or close them with one disposition and note
 * (each item's history records it, marked bulk). Every row shows its own answer; a refused one says why.
 */
export function BulkReview({
  selection,
  shown,
  onOutcomes,
}: {
  selection: Selection;
  shown: readonly string[];
  onOutcomes: (outcomes: ReadonlyMap<string, BulkOutcome>) => void;
}) {
  const bulk = useBulkUpdateSupervisionItems();
  const [closing, setClosing] = useState(false);
  const count = selection.selected.length;
  const allShownSelected = shown.length > 0 && shown.every((reference) => selection.isSelected(reference));

  const claim = () =>
    bulk.mutate(
      { body: { action: 'claim', item_references: [...selection.selected] } },
      {
        onSuccess: (answer) => {
          onOutcomes(bulkOutcomes(answer, 'Claimed'));
          selection.clear();
        },
      },
    );
  const close = (request: CloseRequest) =>
    bulk.mutate(
      { body: { ...request, item_references: [...selection.selected] } },
      {
        onSuccess: (answer) => {
          onOutcomes(bulkOutcomes(answer, `Closed: ${request.disposition}`));
          selection.clear();
          setClosing(false);
        },
      },
    );

  return (
    <Paper withBorder p="sm" component="section" aria-label="Bulk review">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" aria-live="polite">
            {count === 0 ? `Select up to ${BULK_SELECTION_LIMIT} items for a bulk action.` : `${count} of up to ${BULK_SELECTION_LIMIT} selected.`}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => selection.addAll(shown)} disabled={allShownSelected || selection.isFull || shown.length === 0}>
              Select all shown
            </Button>
            <Button variant="default" size="xs" onClick={selection.clear} disabled={count === 0}>
              Clear selection
            </Button>
            <PermittedButton action="supervision:ReviewItem" size="xs" onClick={claim} loading={bulk.isPending && !closing} disabled={count === 0}>
              Claim selected
            </PermittedButton>
            <PermittedButton action="supervision:ReviewItem" size="xs" variant="light" onClick={() => {
                bulk.reset();
                setClosing(true);
              }}
              disabled={count === 0}>
              Close selected…
            </PermittedButton>
          </Group>
        </Group>
        {bulk.error !== null && !closing && (
          <Alert variant="default" color="red" title="The bulk action was refused" role="alert">
            {bulk.error.message}
          </Alert>
        )}
      </Stack>
      <Modal opened={closing} onClose={() => setClosing(false)} title={`Close ${count} ${count === 1 ? 'item' : 'items'}`} closeButtonProps={{ 'aria-label': 'Close the dialog' }}>
        <CloseForm busy={bulk.isPending} error={bulk.error} submitLabel={`Close ${count} ${count === 1 ? 'item' : 'items'}`} onSubmit={close} onCancel={() => setClosing(false)} />
      </Modal>
    </Paper>
  );
}
