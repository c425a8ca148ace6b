import { Anchor, Badge, Checkbox, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { SupervisionItem } from '#shared/contract/entities/supervision.ts';
import type { Column } from '../../../components/data/cursor-table.tsx';
import { actorName } from '../../../lib/actor-name.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { labelOf, PAYLOAD_TYPE_LABELS } from '../../../lib/labels.ts';
import type { Selection } from '../../../lib/use-selection.ts';
import { hitSummary, personOf, STATE_COLOURS } from '../item/item-words.ts';
import type { BulkOutcome } from './bulk-review.tsx';

const oneLine = { whiteSpace: 'nowrap' } as const;

/**
 * The queue's columns: who (by name), what, when, why (policies and terms hit), where it stands, who has it, and by
 * when; the first column is the row's checkbox when the role may review, the last the row's bulk answer and Claim.
 */
export function queueColumns(options: {
  selection?: Selection;
  outcomes: ReadonlyMap<string, BulkOutcome>;
  claimControl?: (item: SupervisionItem) => ReactNode;
}): Column<SupervisionItem>[] {
  const { selection, outcomes, claimControl } = options;
  const columns: (Column<SupervisionItem> | false)[] = [
    selection !== undefined && {
      header: 'Select',
      exportable: false,
      value: () => '',
      render: (row) => (
        <Checkbox
          aria-label={`Select the item on ${personOf(row)}'s ${labelOf(PAYLOAD_TYPE_LABELS, row.payload_type).toLowerCase()} of ${formatDateTime(row.payload_time)}`}
          checked={selection.isSelected(row.item_reference)}
          disabled={!selection.isSelected(row.item_reference) && selection.isFull}
          onChange={() => selection.toggle(row.item_reference)}
        />
      ),
    },
    {
      header: 'Person',
      value: (row) => personOf(row),
      render: (row) => (
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/dashboard/supervision/$item_reference" params={{ item_reference: row.item_reference }} />}>
          {personOf(row)}
        </Anchor>
      ),
    },
    { header: 'Type', value: (row) => labelOf(PAYLOAD_TYPE_LABELS, row.payload_type) },
    {
      header: 'Recorded',
      value: (row) => row.payload_time,
      render: (row) => (
        <Text size="xs" style={oneLine}>
          {formatDateTime(row.payload_time)}
        </Text>
      ),
    },
    { header: 'Hits', value: (row) => hitSummary(row.hits), render: (row) => <Text size="sm">{hitSummary(row.hits)}</Text> },
    {
      header: 'State',
      value: (row) => row.state,
      render: (row) => (
        <Badge variant="light" color={STATE_COLOURS[row.state]} tt="none">
          {row.state}
        </Badge>
      ),
    },
    { header: 'Assignee', value: (row) => (row.assignee === undefined ? '' : actorName(row.assignee_actor, row.assignee)) },
    {
      header: 'Due',
      value: (row) => `${row.due_at}${row.is_overdue ? ' (overdue)' : ''}`,
      render: (row) => (
        <Text size="xs" style={oneLine} c={row.is_overdue ? 'red' : undefined} fw={row.is_overdue ? 600 : undefined}>
          {formatDateTime(row.due_at)}
          {row.is_overdue && ' · overdue'}
        </Text>
      ),
    },
    (claimControl !== undefined || outcomes.size > 0) && {
      header: 'Action',
      exportable: false,
      value: (row) => outcomes.get(row.item_reference)?.text ?? '',
      render: (row) => {
        const outcome = outcomes.get(row.item_reference);
        if (outcome !== undefined) {
          return (
            <Text size="xs" c={outcome.ok ? 'green' : 'red'}>
              {outcome.text}
            </Text>
          );
        }
        return claimControl?.(row) ?? null;
      },
    },
  ];
  return columns.filter((column): column is Column<SupervisionItem> => column !== false);
}
