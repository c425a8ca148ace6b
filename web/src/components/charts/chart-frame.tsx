import { Button, Group, Table, Title, type TitleOrder } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { formatNumber } from '../../lib/format.ts';

export interface ChartTable {
  /** Header of the first (label) column, then one per value column. */
  headers: readonly string[];
  rows: readonly { label: string; values: readonly number[] }[];
}

/**
 * What every chart shares: a heading, the picture, and a "Show table" toggle that reveals the same numbers as a table,
 * so nobody needs the picture (or its colours) to read them. The table is in the DOM only while shown: the picture
 * already carries a text summary for assistive technology.
 */
export function ChartFrame({
  title,
  titleOrder = 2,
  table,
  children,
}: {
  title: string;
  titleOrder?: TitleOrder;
  table: ChartTable;
  children: ReactNode;
}) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  return (
    <figure style={{ margin: 0 }}>
      <Group justify="space-between" align="center" mb="xs" wrap="nowrap">
        <Title order={titleOrder} size="h4">
          {title}
        </Title>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={showTable}
          aria-controls={showTable ? tableId : undefined}
          aria-label={`${showTable ? 'Hide table' : 'Show table'}: ${title}`}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? 'Hide table' : 'Show table'}
        </Button>
      </Group>
      {children}
      {showTable && (
        <Table id={tableId} aria-label={title} mt="sm" striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              {table.headers.map((header) => (
                <Table.Th key={header} scope="col">
                  {header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.rows.map((row) => (
              <Table.Tr key={row.label}>
                <Table.Th scope="row" fw={400}>
                  {row.label}
                </Table.Th>
                {row.values.map((value, index) => (
                  <Table.Td key={table.headers[index + 1] ?? index}>{formatNumber(value)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </figure>
  );
}

/** Series colours, each paired with a dash pattern and a marker shape so no series is told apart by colour alone. */
export const SERIES_STYLES = [
  { colour: 'var(--mantine-color-cerulean-6)', dash: undefined, marker: 'circle' },
  { colour: 'var(--mantine-color-orange-7)', dash: '7 4', marker: 'square' },
  { colour: 'var(--mantine-color-grape-6)', dash: '2 3', marker: 'triangle' },
  { colour: 'var(--mantine-color-teal-7)', dash: '10 3 2 3', marker: 'diamond' },
  { colour: 'var(--mantine-color-red-7)', dash: '4 2', marker: 'circle' },
  { colour: 'var(--mantine-color-indigo-5)', dash: '1 2', marker: 'square' },
  { colour: 'var(--mantine-color-lime-8)', dash: '12 4', marker: 'triangle' },
  { colour: 'var(--mantine-color-pink-6)', dash: '6 2 1 2', marker: 'diamond' },
  { colour: 'var(--mantine-color-yellow-8)', dash: '3 5', marker: 'circle' },
  { colour: 'var(--mantine-color-gray-6)', dash: '9 2', marker: 'square' },
] as const;

export type SeriesStyle = (typeof SERIES_STYLES)[number];

export function seriesStyle(index: number): SeriesStyle {
  return SERIES_STYLES[index % SERIES_STYLES.length] as SeriesStyle;
}

/** A marker shape centred on (x, y). */
export function Marker({ x, y, style, size = 4 }: { x: number; y: number; style: SeriesStyle; size?: number }) {
  const common = { fill: style.colour, stroke: 'var(--mantine-color-body)', strokeWidth: 1 };
  switch (style.marker) {
    case 'square':
      return <rect x={x - size} y={y - size} width={size * 2} height={size * 2} {...common} />;
    case 'triangle':
      return <path d={`M${x} ${y - size - 1} L${x + size + 1} ${y + size} L${x - size - 1} ${y + size} Z`} {...common} />;
    case 'diamond':
      return <path d={`M${x} ${y - size - 1} L${x + size + 1} ${y} L${x} ${y + size + 1} L${x - size - 1} ${y} Z`} {...common} />;
    default:
      return <circle cx={x} cy={y} r={size} {...common} />;
  }
}

/** "App versions: 5.2.0 5, 5.1.3 2." — what a screen reader hears for the picture. */
export function summarise(title: string, pairs: readonly (readonly [string, number])[]): string {
  if (pairs.length === 0) return `${title}: no data.`;
  return `${title}: ${pairs.map(([label, value]) => `${label} ${formatNumber(value)}`).join(', ')}.`;
}
