import { Alert, Button, Checkbox, Group, List, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { ObjectLockFacts, RetentionPreview } from '#shared/contract/entities/account-data.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { labelOf, PAYLOAD_TYPE_LABELS, RETENTION_RECORD_TYPE_LABELS } from '../../lib/labels.ts';
import { keptText, keptTotals, needsConfirmation, previewRows, previewTotals, tallyText, type Tally } from './preview-model.ts';
import type { RetentionChange } from './retention-model.ts';
import { ObjectLockNote } from './object-lock-note.tsx';

const count = (tally: Tally) => tallyText(tally, formatNumber);

/**
 * The step between editing and saving: what changed, how many records the next retention run would delete and destroy
 * because of it, and, when that is many, an explicit confirmation before Save.
 */
export function ReviewChanges({
  changes,
  preview,
  shortensRecordings,
  objectLock,
  saving,
  onSave,
  onCancel,
}: {
  changes: readonly RetentionChange[];
  /** Undefined when the role may not preview: the counts are then not shown. */
  preview: RetentionPreview | undefined;
  shortensRecordings: boolean;
  objectLock: ObjectLockFacts | undefined;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  const totals = preview === undefined ? undefined : previewTotals(preview);
  const large = totals !== undefined && needsConfirmation(totals);
  const [confirmed, setConfirmed] = useState(false);
  const extraTotal = totals === undefined ? 0 : totals.extra.deleted.count + totals.extra.destroyed.count;
  return (
    <Stack>
      <div>
        <Text fw={600} mb={4}>
          What changes
        </Text>
        <List size="sm" spacing={4}>
          {changes.map((change) => (
            <List.Item key={`${change.row}:${change.field}`}>
              {change.row}, {change.field.toLowerCase()}: {change.before} → <strong>{change.after}</strong>
            </List.Item>
          ))}
        </List>
      </div>
      {totals === undefined || preview === undefined ? (
        <Alert color="gray" variant="light" title="No preview">
          Your roles do not allow previewing retention changes, so the records this change makes due are not counted here.
        </Alert>
      ) : (
        <>
          <Alert color={extraTotal > 0 ? (large ? 'red' : 'yellow') : 'green'} variant="light" title="At the next retention run" data-testid="retention-preview">
            {extraTotal === 0 && !totals.extra.deleted.more && !totals.extra.destroyed.more ? (
              <Text size="sm">This change makes no more records due than the current policy already does.</Text>
            ) : (
              <Text size="sm">
                This change makes <strong>{count(totals.extra.deleted)}</strong> more records due for deletion and{' '}
                <strong>{count(totals.extra.destroyed)}</strong> more due for destruction, counted as of {formatDateTime(preview.as_of)}.
              </Text>
            )}
            <Text size="xs" c="dimmed" mt={4}>
              Under the new policy: {count(totals.proposed.deleted)} deleted and {count(totals.proposed.destroyed)} destroyed in all (the current policy:{' '}
              {count(totals.current.deleted)} and {count(totals.current.destroyed)}). Deleted records can be restored until they are destroyed; destroyed ones
              cannot.
            </Text>
            <KeptSummary preview={preview} />
          </Alert>
          <PreviewTable preview={preview} />
        </>
      )}
      {shortensRecordings && <ObjectLockNote compact facts={objectLock} />}
      {changes.some((change) => change.shortens) && (
        <Text size="sm" data-testid="needs-second-approver">
          This shortens how long records are kept: saving asks for it, and it applies only when a second person who may change the policy approves it.
        </Text>
      )}
      {large && (
        <Checkbox
          checked={confirmed}
          onChange={(event) => setConfirmed(event.currentTarget.checked)}
          label={`I understand that ${formatNumber(extraTotal)}${totals?.extra.deleted.more || totals?.extra.destroyed.more ? ' or more' : ''} more records become due at the next run`}
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Keep editing
        </Button>
        <Button onClick={onSave} loading={saving} disabled={large && !confirmed} color={large ? 'red.9' : undefined}>
          Save policy
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * What the run keeps of what the new policy makes due, and why: records under a legal hold, objects whose Object Lock
 * retention is still in force, recordings still waiting for their receipts or transfers (the run's own decision, so
 * these records are not in the deleted and destroyed counts above).
 */
function KeptSummary({ preview }: { preview: RetentionPreview }) {
  const kept = keptTotals(preview);
  if (kept.length === 0) {
    return (
      <Text size="xs" mt={4} data-testid="retention-kept">
        The run keeps none of the records this policy makes due.
      </Text>
    );
  }
  return (
    <div data-testid="retention-kept">
      <Text size="xs" fw={600} mt={4}>
        Due but kept by the run:
      </Text>
      <List size="xs" spacing={0}>
        {kept.map((one) => (
          <List.Item key={`${one.reason}:${one.instead_of}`}>{keptText(one, formatNumber)}</List.Item>
        ))}
      </List>
    </div>
  );
}

function PreviewTable({ preview }: { preview: RetentionPreview }) {
  const rows = previewRows(preview);
  if (rows.length === 0) return null;
  return (
    // The viewport takes focus so a keyboard can scroll a table wider than the dialog (axe: scrollable-region-focusable).
    <Table.ScrollContainer minWidth={640} scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': 'Records due at the next run, scrollable' } }}>
      <Table aria-label="Records due at the next run" verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Records</Table.Th>
            <Table.Th scope="col">Deleted (now → new)</Table.Th>
            <Table.Th scope="col">Destroyed (now → new)</Table.Th>
            <Table.Th scope="col">Kept by the run (new)</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Th scope="row" fw={400}>
                {labelOf(RETENTION_RECORD_TYPE_LABELS, row.recordType)}
                {row.payloadType === undefined ? '' : `: ${labelOf(PAYLOAD_TYPE_LABELS, row.payloadType)}`}
              </Table.Th>
              <Table.Td>
                {count(row.current.deleted)} → {count(row.proposed.deleted)}
              </Table.Td>
              <Table.Td>
                {count(row.current.destroyed)} → {count(row.proposed.destroyed)}
              </Table.Td>
              <Table.Td>
                {row.kept.length === 0 ? (
                  <Text span size="sm" c="dimmed">
                    none
                  </Text>
                ) : (
                  row.kept.map((kept) => (
                    <Text key={`${kept.reason}:${kept.instead_of}`} size="sm">
                      {keptText(kept, formatNumber)}
                    </Text>
                  ))
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
