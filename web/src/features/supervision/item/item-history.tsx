import { Badge, Table, Text } from '@mantine/core';
import type { SupervisionHistoryEntry } from '#shared/contract/entities/supervision.ts';
import { actorName } from '../../../lib/actor-name.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { HISTORY_EVENT_LABELS } from './item-words.ts';

/** The item's history, oldest first, as it was written: who (by name), when, what, from which state to which. */
export function ItemHistory({ history }: { history: readonly SupervisionHistoryEntry[] }) {
  if (history.length === 0) return <Text c="dimmed">No history yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label="History">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Disposition</Table.Th>
            <Table.Th>Note</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {history.map((entry, index) => (
            // History entries are never changed or removed: their order is their identity.
            <Table.Tr key={`${entry.at}-${index}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at)}</Table.Td>
              <Table.Td>{actorName(entry.by_actor, entry.by)}</Table.Td>
              <Table.Td>
                {HISTORY_EVENT_LABELS[entry.event]}
                {/* A claim names its claimer as the assignee; only an assignment names someone else. */}
                {entry.event === 'assign' && entry.assignee !== undefined && ` to ${actorName(entry.assignee_actor, entry.assignee)}`}
                {entry.policy_reference !== undefined && ` (policy ${entry.policy_reference})`}
                {entry.is_bulk && (
                  <Badge ml="xs" size="xs" variant="outline" tt="none">
                    bulk
                  </Badge>
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{entry.from_state === undefined ? entry.to_state : `${entry.from_state} → ${entry.to_state}`}</Table.Td>
              <Table.Td>{entry.disposition ?? ''}</Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{entry.note ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
