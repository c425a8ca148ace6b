import { Badge, Box, Group, Switch, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { changeCounts, type FieldChange, type FieldRow, type ShownValue } from './record-diff.ts';
import { sideOf, wordDiff, type WordPart } from './word-diff.ts';

export const CHANGE_LABELS: Record<FieldChange, string> = { added: 'Added', removed: 'Removed', changed: 'Changed', same: 'Same' };
const CHANGE_COLOURS: Record<FieldChange, string> = { added: 'green', removed: 'red', changed: 'yellow', same: 'gray' };

// Marked text keeps the body's colour (full contrast in both schemes) on a light tint of its change's colour.
const REMOVED_STYLE = { background: 'var(--mantine-color-red-light)', textDecorationThickness: 1 } as const;
const ADDED_STYLE = { background: 'var(--mantine-color-green-light)', textDecoration: 'none', fontWeight: 600 } as const;

function Marked({ part }: { part: WordPart }) {
  if (part.change === 'removed') return <Box component="del" style={REMOVED_STYLE}>{part.text}</Box>;
  if (part.change === 'added') return <Box component="ins" style={ADDED_STYLE}>{part.text}</Box>;
  return <>{part.text}</>;
}

/** A list's items, those missing from the other side marked. */
function Items({ items, other, side }: { items: readonly string[]; other: readonly string[]; side: 'before' | 'after' }) {
  if (items.length === 0) return <>None</>;
  const kept = new Set(other);
  return (
    <>
      {items.map((item, index) => (
        <span key={`${item}-${index}`}>
          {index > 0 && ', '}
          {kept.has(item) ? item : <Marked part={{ change: side === 'before' ? 'removed' : 'added', text: item }} />}
        </span>
      ))}
    </>
  );
}

/** One side of a row: its words, with what differs from the other side marked (words of a text, items of a list). */
function SideCell({ row, side }: { row: FieldRow; side: 'before' | 'after' }) {
  const value: ShownValue | undefined = row[side];
  const other: ShownValue | undefined = side === 'before' ? row.after : row.before;
  if (value === undefined) return <Text span c="dimmed">Not in this version</Text>;
  if (row.change === 'same') return <>{value.text}</>;
  if (other === undefined) return <Marked part={{ change: side === 'before' ? 'removed' : 'added', text: value.text }} />;
  if (value.items !== undefined && other.items !== undefined) return <Items items={value.items} other={other.items} side={side} />;
  const parts = side === 'before' ? sideOf(wordDiff(value.text, other.text), 'before') : sideOf(wordDiff(other.text, value.text), 'after');
  return (
    <>
      {parts.map((part, index) => (
        <Marked key={index} part={part} />
      ))}
    </>
  );
}

/**
 * Two states of a record side by side, field by field: each differing field marked added, removed or changed, the
 * words (or list items) that differ highlighted on each side. Fields alike on both sides are counted, and shown on
 * request.
 */
export function VersionComparison({ rows, beforeTitle, afterTitle }: { rows: readonly FieldRow[]; beforeTitle: string; afterTitle: string }) {
  const [showSame, setShowSame] = useState(false);
  const counts = changeCounts(rows);
  const shown = showSame ? rows : rows.filter((row) => row.change !== 'same');
  const differing = counts.added + counts.removed + counts.changed;
  return (
    <>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" aria-live="polite">
          {differing === 0
            ? 'The two are alike in every field.'
            : (['changed', 'added', 'removed'] as const)
                .filter((change) => counts[change] > 0)
                .map((change) => `${counts[change]} ${counts[change] === 1 ? 'field' : 'fields'} ${CHANGE_LABELS[change].toLowerCase()}`)
                .join(', ')}
          {counts.same > 0 && `; ${counts.same} alike.`}
        </Text>
        <Switch size="sm" label="Show fields that are alike" checked={showSame} onChange={(event) => setShowSame(event.currentTarget.checked)} />
      </Group>
      {shown.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Comparison" verticalSpacing={6} fz="sm" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="24%">Field</Table.Th>
                <Table.Th w="11%">Difference</Table.Th>
                <Table.Th>{beforeTitle}</Table.Th>
                <Table.Th>{afterTitle}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((row) => (
                <Table.Tr key={row.key} data-change={row.change}>
                  <Table.Th scope="row" fw={500}>
                    {row.label}
                  </Table.Th>
                  <Table.Td>
                    <Badge variant="light" color={CHANGE_COLOURS[row.change]} tt="none">
                      {CHANGE_LABELS[row.change]}
                    </Badge>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-side="before">
                    <SideCell row={row} side="before" />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-side="after">
                    <SideCell row={row} side="after" />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
