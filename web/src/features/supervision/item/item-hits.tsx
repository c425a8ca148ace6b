import { Table, Text } from '@mantine/core';
import type { SupervisionHit } from '#shared/contract/entities/supervision.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** A sampling hit's keyed-hash value, to six places: the share it fell under explains the choice. */
const sampleText = (hit: SupervisionHit) =>
  hit.sample_value === undefined ? 'Sampled' : `Sampled (value ${hit.sample_value.toFixed(6)}${hit.is_minimum_top_up === true ? ', daily minimum top-up' : ''})`;

/** Why the recording is in the queue: each policy's hit, the term and how often it matched, or the sampling value. */
export function ItemHits({ hits }: { hits: readonly SupervisionHit[] }) {
  if (hits.length === 0) return <Text c="dimmed">No hits.</Text>;
  return (
    <Table striped aria-label="Hits">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Policy</Table.Th>
          <Table.Th>Why</Table.Th>
          <Table.Th>Where</Table.Th>
          <Table.Th>Raised</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {hits.map((hit) => (
          <Table.Tr key={`${hit.policy_reference}-${hit.term ?? 'sample'}-${hit.field ?? ''}`}>
            <Table.Td>{hit.policy_reference}</Table.Td>
            <Table.Td>{hit.kind === 'Sampling' ? sampleText(hit) : `Term “${hit.term ?? ''}”`}</Table.Td>
            <Table.Td>
              {hit.kind === 'Sampling' ? '' : `${hit.field === 'notes' ? 'Notes' : 'Text'}, ${hit.matches.length} ${hit.matches.length === 1 ? 'match' : 'matches'}`}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(hit.raised_at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
