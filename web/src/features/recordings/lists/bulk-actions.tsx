import { Alert, Anchor, Button, Group, List, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { useDownloadLinks } from '../api/bulk-data-links.ts';
import { useConfirmReceipts } from '../api/confirm-receipts.ts';
import { BULK_LIMIT } from '../api/bulk-data-links.ts';
import { useAllowedAction } from './allowed-action.ts';
import type { RowOutcome } from './row-outcome.ts';
import type { Selection } from './use-selection.ts';

interface ReadyLink {
  reference: string;
  url: string;
}

/**
 * The bulk bar over a recordings table: select up to 100 rows, then confirm their receipt (`POST receipts`) or ask
 * for their download links (`GET data`). Each row's answer goes back to the table through `onOutcomes`. A control
 * the user's role would refuse stays off, with the reason beside it.
 */
export function BulkActions({
  selection,
  shown,
  onOutcomes,
}: {
  selection: Selection;
  /** The references of the rows on screen, in order ("Select all shown"). */
  shown: readonly string[];
  onOutcomes: (outcomes: ReadonlyMap<string, RowOutcome>) => void;
}) {
  const receiptsAllowed = useAllowedAction('payloads:ConfirmReceipt');
  const downloadAllowed = useAllowedAction('payloads:Download');
  const receipts = useConfirmReceipts();
  const links = useDownloadLinks();
  const [ready, setReady] = useState<{ links: ReadyLink[]; expiresAt: number } | undefined>(undefined);

  // Links stop working after their lifetime: take them off the screen then, rather than offer a dead link.
  useEffect(() => {
    if (ready === undefined) return;
    const timer = setTimeout(() => setReady(undefined), Math.max(0, ready.expiresAt - Date.now()));
    return () => clearTimeout(timer);
  }, [ready]);

  const count = selection.selected.length;
  const allShownSelected = shown.length > 0 && shown.every((reference) => selection.isSelected(reference));

  const confirm = () =>
    receipts.mutate(
      { body: { payload_references: [...selection.selected] } },
      {
        onSuccess: (answer) => {
          onOutcomes(new Map(answer.data.map((row) => [row.reference, { action: 'receipt', ok: row.ok, status: row.ok ? 'Ok' : (row.message ?? 'Refused') }])));
        },
      },
    );
  const download = () => {
    links.mutate(selection.selected, {
      onSuccess: (answer) => {
        onOutcomes(new Map(answer.data.map((row) => [row.payload_reference, { action: 'download', ok: row.status === 'Ok', status: row.status }])));
        const ok = answer.data.flatMap((row) => (row.status === 'Ok' && row.s3_url !== undefined ? [{ reference: row.payload_reference, url: row.s3_url }] : []));
        setReady(ok.length === 0 ? undefined : { links: ok, expiresAt: answer.expiresAt });
      },
    });
  };
  const reasons = [receiptsAllowed.reason, downloadAllowed.reason].filter((reason): reason is string => reason !== undefined);
  const error = receipts.error ?? links.error;

  return (
    <Paper withBorder p="sm" mb="sm" component="section" aria-label="Bulk actions">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" aria-live="polite">
            {count === 0 ? `Select up to ${BULK_LIMIT} recordings for a bulk action.` : `${count} of up to ${BULK_LIMIT} selected.`}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => selection.addAll(shown)} disabled={allShownSelected || selection.isFull || shown.length === 0}>
              Select all shown
            </Button>
            <Button variant="default" size="xs" onClick={selection.clear} disabled={count === 0}>
              Clear selection
            </Button>
            <Button size="xs" onClick={confirm} loading={receipts.isPending} disabled={count === 0 || !receiptsAllowed.allowed}>
              Confirm receipt
            </Button>
            <Button size="xs" variant="light" onClick={download} loading={links.isPending} disabled={count === 0 || !downloadAllowed.allowed}>
              Get download links
            </Button>
          </Group>
        </Group>
        {reasons.map((reason) => (
          <Text key={reason} size="xs" c="dimmed">
            {reason}
          </Text>
        ))}
        {error !== null && (
          <Alert variant="default" color="red" title="The bulk action was refused" role="alert">
            {error.message}
          </Alert>
        )}
        {ready !== undefined && (
          <Alert variant="default" title={`Download links (they work until ${formatDateTime(ready.expiresAt)})`}>
            <List size="sm" spacing={2}>
              {ready.links.map((link) => (
                <List.Item key={link.reference}>
                  <Anchor href={link.url} download={link.reference} rel="noopener noreferrer">
                    Download {link.reference}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
