import { Table, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';
import { DIRECTION_LABELS, type Party } from './parties.ts';
import { formatClock } from './spans.ts';

/** The other parties: number and name, direction, when they joined and for how long. */
export function PartiesTable({ parties }: { parties: readonly Party[] }) {
  if (parties.length === 0) return <Text c="dimmed">No other party recorded.</Text>;
  const timed = parties.some((party) => party.startTime !== undefined || party.duration !== undefined);
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped aria-label="Parties">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Direction</Table.Th>
            {timed && <Table.Th>Started</Table.Th>}
            {timed && <Table.Th>Connected</Table.Th>}
            {timed && <Table.Th>Duration</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parties.map((party, index) => (
            <Table.Tr key={`${party.phoneNumber}-${index}`}>
              <Table.Td>{party.phoneNumber}</Table.Td>
              <Table.Td>{party.contactName ?? '—'}</Table.Td>
              <Table.Td>{party.direction === undefined ? '—' : DIRECTION_LABELS[party.direction]}</Table.Td>
              {timed && <Table.Td>{formatDateTime(party.startTime)}</Table.Td>}
              {timed && <Table.Td>{formatDateTime(party.connectionTime)}</Table.Td>}
              {timed && <Table.Td>{party.duration === undefined ? '—' : formatClock(party.duration)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
