import { Alert, Loader, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';
import { useCan } from '../../../lib/use-can.ts';
import { usePayloadAudit } from '../api/get-payload-audit.ts';
import type { PayloadAuditAction } from '#shared/constants/payloads.ts';
import { actorName } from '../../../lib/actor-name.ts';

/** What each audit record says was done: a play link given, a photo or message opened, a copy taken, a transfer. */
const ACTION_LABELS = {
  play: 'Played',
  view: 'Viewed',
  download: 'Downloaded',
  transfer: 'Transferred',
  production: 'Produced',
  receipt: 'Receipt confirmed',
} as const satisfies Record<PayloadAuditAction | 'receipt', string>;

/** Who played, viewed, downloaded, transferred or confirmed receipt of the recording, and when: newest first. */
export function AuditTrail({ payloadReference }: { payloadReference: string }) {
  const canRead = useCan('payloads:ReadAudit');
  const audit = usePayloadAudit(payloadReference, { enabled: canRead.allowed });
  if (!canRead.allowed) {
    return (
      <Alert variant="light" color="gray" title="The audit trail is not open to you">
        {canRead.reason}
      </Alert>
    );
  }
  if (audit.isLoading) return <Loader size="sm" aria-label="Loading the audit trail" />;
  const rows = [
    ...(audit.data?.records ?? []).map((record) => ({ who: actorName(record.actor, record.portal_user), action: ACTION_LABELS[record.action], time: record.time })),
    ...(audit.data?.receipts ?? []).map((receipt) => ({ who: actorName(receipt.actor, receipt.user), action: ACTION_LABELS.receipt, time: receipt.time })),
  ].sort((a, b) => b.time.localeCompare(a.time));
  if (rows.length === 0) return <Text c="dimmed">Nobody has played, viewed, downloaded, transferred or confirmed this recording yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={420} mah={320}>
      <Table striped aria-label="Audit trail">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>Who</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={`${row.time}-${index}`}>
              <Table.Td>{formatDateTime(row.time)}</Table.Td>
              <Table.Td>{row.action}</Table.Td>
              <Table.Td>{row.who}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
